/**
 * The PROXY protocol (HAProxy's v1 text and v2 binary header) on a client port: the handlers that
 * run on a connection's first bytes, before its TLS and framing, take the client's address from
 * the header a trusted load balancer wrote, and only then let the connection open
 * ({@link io.sluice.relay.ClientAddress#KEY}). See docs/REFERENCE.md,
 * "The PROXY protocol".
 */
package io.sluice.relay.proxyprotocol;
