/**
 * New client connections held to their address's rate at accept (docs/REFERENCE.md, "Limits by
 * client address"): {@link io.sluice.relay.accept.ConnectionRates} finds the bucket of a client's
 * address, {@link io.sluice.relay.accept.ConnectionRateGate} delays or closes a connection over it.
 */
package io.sluice.relay.accept;
