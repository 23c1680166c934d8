package io.sluice.server.it;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;

/** Ports chosen by the test rather than by the server, for a server that must come back on the same one. */
final class FreePort {

    private FreePort() {
    }

    /**
     * A loopback port nothing listens on at the moment: for a Sluice restarted on the port its
     * clients know, or a broker started later on the port a Sluice already forwards to.
     */
    static int onLoopback() {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot find a free port", e);
        }
    }
}
