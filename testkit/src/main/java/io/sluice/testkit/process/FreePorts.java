package io.sluice.testkit.process;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;

/** Free loopback ports for any child process a test or benchmark starts on ports of its choosing. */
public final class FreePorts {

    private FreePorts() {}

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

    /**
     * Returns the first of {@code count} consecutive free loopback ports, for a server that takes
     * a range (Sluice's Kafka node ports), below the kernel's ephemeral range so that outgoing
     * connections do not take them meanwhile.
     */
    public static int loopbackRange(int count) {
        for (int attempt = 0; attempt < 200; attempt++) {
            int first = 20_000 + ThreadLocalRandom.current().nextInt(12_000);
            List<ServerSocket> sockets = new ArrayList<>();
            try {
                for (int port = first; port < first + count; port++) {
                    sockets.add(new ServerSocket(port, 1, InetAddress.getLoopbackAddress()));
                }
                return first;
            } catch (IOException taken) {
                // Try another range.
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
        throw new IllegalStateException("no " + count + " consecutive free ports found");
    }
}
