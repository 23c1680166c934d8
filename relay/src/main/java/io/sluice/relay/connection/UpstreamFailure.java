package io.sluice.relay.connection;

import io.sluice.relay.tls.TlsHandshakeWatch;

/**
 * Why an attempt to open the upstream connection to {@code host:port} failed: the TCP connect
 * ({@code cause} as the socket reported it), or the TLS handshake after it ({@code inTlsHandshake}).
 * Handed to the front end, which decides what follows: refuse the client with its own error, or
 * try the next address.
 */
public record UpstreamFailure(String host, int port, Throwable cause, boolean inTlsHandshake) {

    /** What went wrong, for a log line: the exception as the socket raised it, or why the handshake failed. */
    public String reason() {
        return inTlsHandshake ? "TLS handshake failed: " + TlsHandshakeWatch.reason(cause) : cause.toString();
    }

    /** What went wrong in words for the client: the socket's message, or why the handshake failed. */
    public String message() {
        return inTlsHandshake ? reason() : cause.getMessage();
    }
}
