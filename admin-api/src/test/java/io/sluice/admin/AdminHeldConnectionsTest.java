package io.sluice.admin;

import io.sluice.testing.LeakCheck;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.http.HttpResponse;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Connections that are opened and held on the admin port: past the cap the server keeps four times
 * as many at most, closing the oldest, so thousands of them hold a bounded number of its file
 * descriptors and a probe on a fresh connection is still answered; and a client without a token
 * cannot hold the connections that may use the API with keep-alive probes.
 */
@ExtendWith(LeakCheck.class)
class AdminHeldConnectionsTest {

    private static final int HELD = 5_000;
    private static final String TOKEN = "s3cret-admin-token";
    private static final byte[] PROBE =
            "GET /healthz HTTP/1.1\r\nHost: kubelet\r\n\r\n".getBytes(StandardCharsets.US_ASCII);

    @TempDir
    Path dir;

    private AdminFixture admin;

    @AfterEach
    void stop() {
        admin.close();
    }

    @Test
    void fiveThousandHeldConnectionsHoldABoundedNumberOfDescriptorsAndProbesAreStillAnswered() throws Exception {
        admin = AdminFixture.withToken(dir, TOKEN);
        InetSocketAddress address = new InetSocketAddress("127.0.0.1", admin.server.port());
        long descriptorsBefore = openDescriptors();
        List<SocketChannel> held = new ArrayList<>();
        List<Long> probeMillis = new ArrayList<>();
        try {
            for (int i = 0; i < HELD; i++) {
                held.add(SocketChannel.open(address));
                if (i % 250 == 0) {
                    probeMillis.add(probeMillis());
                }
            }
            for (int i = 0; i < 10; i++) {
                probeMillis.add(probeMillis());
            }
            // Each held client socket is one descriptor of this JVM; what is left is the server's.
            long serverDescriptors = openDescriptors() - descriptorsBefore - HELD;
            List<Long> sorted = probeMillis.stream().sorted().toList();
            System.out.printf(
                    "%d held admin connections: the server holds %d descriptors for them; %d probes, median %d ms,"
                            + " slowest %d ms, %d over 1 s%n",
                    HELD,
                    serverDescriptors,
                    sorted.size(),
                    sorted.get(sorted.size() / 2),
                    sorted.get(sorted.size() - 1),
                    sorted.stream().filter(millis -> millis > 1_000).count());
            assertTrue(
                    serverDescriptors <= (1 + AdminSlots.PAST_CAP_FACTOR) * AdminServer.DEFAULT_MAX_CONNECTIONS + 16,
                    serverDescriptors + " descriptors for " + HELD + " held connections");
            // Those accepted while connections ran short had 2 s for a request: their places free up.
            awaitApi(5);
        } finally {
            for (SocketChannel channel : held) {
                channel.close();
            }
        }
    }

    /** Waits up to {@code seconds} until the API answers 200, on one of the connections that may use it. */
    private void awaitApi(int seconds) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        int status = 0;
        while (status != 200 && System.nanoTime() < deadline) {
            status = admin.client
                    .send(admin.request("/api/v1/limits", TOKEN).GET().build(), HttpResponse.BodyHandlers.ofString())
                    .statusCode();
            Thread.sleep(50);
        }
        assertEquals(200, status, "the API, with the held connections still open");
    }

    @Test
    void keepAliveProbesWithoutATokenDoNotHoldTheConnectionsTokenHoldersNeed() throws Exception {
        admin = AdminFixture.withToken(dir, TOKEN);
        List<Socket> probers = new ArrayList<>();
        try {
            for (int i = 0; i < AdminServer.DEFAULT_MAX_CONNECTIONS; i++) {
                Socket socket = new Socket("127.0.0.1", admin.server.port());
                socket.setSoTimeout(10_000);
                probers.add(socket);
                socket.getOutputStream().write(PROBE);
            }
            int closedByServer = 0;
            for (Socket socket : probers) {
                if (answeredThenClosed(socket)) {
                    closedByServer++;
                }
            }
            assertTrue(
                    closedByServer >= AdminServer.DEFAULT_MAX_CONNECTIONS / 2 - 1,
                    "keep-alive probes kept " + (probers.size() - closedByServer) + " connections");
            HttpResponse<String> api = admin.client.send(
                    admin.request("/api/v1/limits", TOKEN).GET().build(), HttpResponse.BodyHandlers.ofString());
            assertEquals(200, api.statusCode(), api.body());
        } finally {
            for (Socket socket : probers) {
                socket.close();
            }
        }
    }

    /** Milliseconds until a probe on a fresh connection is answered 200. */
    private long probeMillis() throws IOException {
        long start = System.nanoTime();
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress("127.0.0.1", admin.server.port()), 10_000);
            socket.setSoTimeout(10_000);
            socket.getOutputStream().write(PROBE);
            String status = new BufferedReader(
                            new InputStreamReader(socket.getInputStream(), StandardCharsets.US_ASCII))
                    .readLine();
            assertEquals("HTTP/1.1 200 OK", status);
        }
        return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
    }

    /** Whether the server answered the probe saying it closes the connection (rather than keeping it alive). */
    private static boolean answeredThenClosed(Socket socket) throws IOException {
        BufferedReader in =
                new BufferedReader(new InputStreamReader(socket.getInputStream(), StandardCharsets.US_ASCII));
        assertEquals("HTTP/1.1 200 OK", in.readLine());
        boolean close = false;
        for (String header = in.readLine(); header != null && !header.isEmpty(); header = in.readLine()) {
            close |= header.equalsIgnoreCase("connection: close");
        }
        return close;
    }

    private static long openDescriptors() throws IOException {
        try (Stream<Path> fds = Files.list(Path.of("/proc/self/fd"))) {
            return fds.count();
        }
    }
}
