/**
 * TLS for any front end and the admin port, from PEM files: the certificates, keys and CAs
 * ({@link io.sluice.relay.tls.PemFiles}), the server and upstream contexts built from them
 * ({@link io.sluice.relay.tls.ServerTlsFiles}, {@link io.sluice.relay.tls.UpstreamTlsFiles}),
 * a context that is rebuilt when its files change ({@link io.sluice.relay.tls.ReloadingSslContext},
 * {@link io.sluice.relay.tls.FileWatch}), and the handler that reports failed handshakes
 * ({@link io.sluice.relay.tls.TlsHandshakeWatch}). See docs/REFERENCE.md, "TLS".
 */
package io.sluice.relay.tls;
