package io.sluice.frontend;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.time.Duration;

/**
 * A {@code host:port} to listen on, as given to {@code --admin} and to a front end's port options
 * ({@code --listen}), or to connect to.
 */
public record HostPort(String host, int port) {

    public HostPort {
        if (host == null || host.isEmpty()) {
            throw new IllegalArgumentException("host must not be empty");
        }
        if (port < 0 || port > 65535) {
            throw new IllegalArgumentException("port " + port + " is out of range 0-65535");
        }
    }

    /** Parses {@code host:port}; port 0 picks a free port. */
    public static HostPort parse(String text) {
        int colon = text == null ? -1 : text.lastIndexOf(':');
        if (colon <= 0 || colon == text.length() - 1) {
            throw new IllegalArgumentException("expected HOST:PORT, got '" + text + "'");
        }
        String host = text.substring(0, colon);
        if (host.startsWith("[") && host.endsWith("]")) {
            host = host.substring(1, host.length() - 1);
        }
        try {
            return new HostPort(host, Integer.parseInt(text.substring(colon + 1)));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("expected HOST:PORT, got '" + text + "'");
        }
    }

    /**
     * Whether a TCP connection to it opens within {@code timeout}, as a front end probes its
     * upstream's readiness ({@link FrontEnd#checkUpstream()}). Blocks: never on an event loop.
     */
    public boolean acceptsConnections(Duration timeout) {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(host, port), (int) timeout.toMillis());
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    @Override
    public String toString() {
        return (host.contains(":") ? "[" + host + "]" : host) + ":" + port;
    }
}
