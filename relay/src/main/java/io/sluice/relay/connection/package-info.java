/**
 * The one skeleton of a proxied connection, for every front end: its states
 * ({@link io.sluice.relay.connection.ConnectionState}), the state machine that makes every
 * transition and carries frames both ways ({@link io.sluice.relay.connection.ProxiedConnection}),
 * the upstream connect ({@link io.sluice.relay.connection.UpstreamDialer}), the length-prefixed
 * frame decoder that lends frames ({@link io.sluice.relay.connection.FrameDecoder}, by a
 * protocol's {@link io.sluice.relay.connection.FrameRule}), the handshake deadline, and the
 * client pipeline ({@link io.sluice.relay.connection.ClientPipeline}). A front end brings a
 * {@link io.sluice.relay.connection.ConnectionSpec} and a
 * {@link io.sluice.relay.connection.ConnectionProtocol}; see {@code ProxiedConnection} for how.
 */
package io.sluice.relay.connection;
