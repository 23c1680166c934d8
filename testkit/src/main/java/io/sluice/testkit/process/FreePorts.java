package io.sluice.testkit.process;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.ArrayList;
import java.util.List;

/** Free loopback ports for any child process a test or benchmark starts on ports of its choosing. */
public final class FreePorts {

    private FreePorts() {
    }

    /**
     * Returns {@code count} free loopback ports, all held open until every one is chosen so that
     * they differ. Another process may still take one before the caller binds it; the kernel hands
     * out ephemeral ports round-robin, which makes that rare.
     */
    public static int[] loopback(int count) {
        List<ServerSocket> sockets = new ArrayList<>();
        try {
            int[] ports = new int[count];
            for (int i = 0; i < count; i++) {
                ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
                sockets.add(socket);
                ports[i] = socket.getLocalPort();
            }
            return ports;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot find free ports", e);
        } finally {
            for (ServerSocket socket : sockets) {
                try {
                    socket.close();
                } catch (IOException e) {
                    // Nothing to do: the port was only probed.
                }
            }
        }
    }

    /** Returns one free loopback port. */
    public static int loopback() {
        return loopback(1)[0];
    }
}
