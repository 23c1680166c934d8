package io.sluice.toy.line;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/** The upstream of the tests: answers {@code OK <id>} to every {@code PUB <id> <topic> ...} line, and counts them per topic. */
final class LineUpstream implements AutoCloseable {

    private final ServerSocket server;
    private final Map<String, AtomicInteger> received = new ConcurrentHashMap<>();

    LineUpstream() throws IOException {
        server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        Thread acceptor = new Thread(this::accept, "line-upstream");
        acceptor.setDaemon(true);
        acceptor.start();
    }

    int port() {
        return server.getLocalPort();
    }

    /** PUB lines that reached the upstream for {@code topic}. */
    int received(String topic) {
        AtomicInteger count = received.get(topic);
        return count == null ? 0 : count.get();
    }

    private void accept() {
        while (!server.isClosed()) {
            try {
                Socket socket = server.accept();
                Thread serve = new Thread(() -> serve(socket), "line-upstream-connection");
                serve.setDaemon(true);
                serve.start();
            } catch (IOException closed) {
                return;
            }
        }
    }

    private void serve(Socket socket) {
        try (socket;
                BufferedReader in =
                        new BufferedReader(new InputStreamReader(socket.getInputStream(), StandardCharsets.UTF_8))) {
            OutputStream out = socket.getOutputStream();
            for (String line; (line = in.readLine()) != null; ) {
                String[] words = line.split(" ", 4);
                if (words.length == 4 && words[0].equals("PUB")) {
                    received.computeIfAbsent(words[2], topic -> new AtomicInteger())
                            .incrementAndGet();
                    out.write(("OK " + words[1] + "\n").getBytes(StandardCharsets.UTF_8));
                } else {
                    out.write(("HUH " + line + "\n").getBytes(StandardCharsets.UTF_8));
                }
                out.flush();
            }
        } catch (IOException gone) {
            // the client (Sluice) closed
        }
    }

    @Override
    public void close() throws IOException {
        server.close();
    }
}
