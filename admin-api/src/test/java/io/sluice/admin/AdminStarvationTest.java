package io.sluice.admin;

import io.sluice.testing.LeakCheck;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A real admin server under a flood: 200 connections pipeline {@code GET /metrics} without ever
 * reading an answer, and reconnect when closed. Meanwhile every probe on a fresh connection is
 * answered 200, and every API request is answered, 200 or 503, none left hanging.
 */
@ExtendWith(LeakCheck.class)
class AdminStarvationTest {

    private static final int FLOOD_CONNECTIONS = 200;
    private static final Duration FLOOD = Duration.ofSeconds(10);
    /**
     * How long a probe may wait for its answer before it counts as lost. The kubelet's default is
     * 1 s; on a CI machine shared by other builds the flood's own threads and the paranoid leak
     * detector take the cores, so the test prints every latency and asserts that none is lost
     * (docs/RELIABILITY.md, section 6).
     */
    private static final Duration ASSERTED = Duration.ofSeconds(10);

    private static final byte[] PIPELINED =
            "GET /metrics HTTP/1.1\r\nHost: sluice\r\n\r\n".repeat(500).getBytes(StandardCharsets.US_ASCII);

    @TempDir
    Path dir;

    private AdminFixture admin;

    @BeforeEach
    void start() throws IOException {
        admin = AdminFixture.start(dir);
    }

    @AfterEach
    void stop() {
        admin.close();
    }

    @Test
    void noProbeAndNoApiRequestIsLostWhile200ConnectionsPipelineMetricsWithoutReading() throws Exception {
        AtomicBoolean flooding = new AtomicBoolean(true);
        AtomicInteger floodConnections = new AtomicInteger();
        Thread flood = new Thread(() -> flood(flooding, floodConnections), "flood");
        flood.setDaemon(true);
        flood.start();
        Thread.sleep(500);

        List<Long> probeMillis = new ArrayList<>();
        List<CompletableFuture<HttpResponse<String>>> apiRequests = new ArrayList<>();
        long end = System.nanoTime() + FLOOD.toNanos();
        while (System.nanoTime() < end) {
            long sent = System.nanoTime();
            String statusLine = probe();
            probeMillis.add(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - sent));
            assertEquals("HTTP/1.1 200 OK", statusLine, "probe " + probeMillis.size());
            apiRequests.add(admin.client.sendAsync(
                    admin.request("/api/v1/limits")
                            .timeout(Duration.ofSeconds(5))
                            .GET()
                            .build(),
                    HttpResponse.BodyHandlers.ofString()));
            Thread.sleep(100);
        }
        flooding.set(false);
        flood.join(10_000);

        int busy = 0;
        for (CompletableFuture<HttpResponse<String>> request : apiRequests) {
            HttpResponse<String> response = request.get(10, TimeUnit.SECONDS);
            assertTrue(
                    response.statusCode() == 200 || response.statusCode() == 503,
                    response.statusCode() + " " + response.body());
            if (response.statusCode() == 503) {
                busy++;
                assertTrue(response.body().contains("Sluice's admin API"), response.body());
            }
        }
        List<Long> sorted = probeMillis.stream().sorted().toList();
        long slowest = sorted.get(sorted.size() - 1);
        System.out.printf(
                "%d probes: median %d ms, p95 %d ms, slowest %d ms; %d API requests, %d answered 503;"
                        + " %d flood connections opened%n",
                sorted.size(),
                sorted.get(sorted.size() / 2),
                sorted.get(sorted.size() * 95 / 100),
                slowest,
                apiRequests.size(),
                busy,
                floodConnections.get());
        assertTrue(probeMillis.size() >= 5, "only " + probeMillis.size() + " probes in " + FLOOD);
        assertTrue(floodConnections.get() >= FLOOD_CONNECTIONS, "the flood opened too few connections");
    }

    /**
     * The status line of {@code GET /healthz} on a fresh connection; waits past the probe deadline,
     * so that the test reports how late a late answer was.
     */
    private String probe() throws IOException {
        int deadline = (int) ASSERTED.toMillis();
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress("127.0.0.1", admin.server.port()), deadline);
            socket.setSoTimeout(deadline);
            socket.getOutputStream()
                    .write("GET /healthz HTTP/1.1\r\nHost: kubelet\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            return new BufferedReader(new InputStreamReader(socket.getInputStream(), StandardCharsets.US_ASCII))
                    .readLine();
        }
    }

    /** Keeps 200 connections pipelining without reading; one the server closed is opened again. */
    private void flood(AtomicBoolean flooding, AtomicInteger opened) {
        InetSocketAddress address = new InetSocketAddress("127.0.0.1", admin.server.port());
        SocketChannel[] channels = new SocketChannel[FLOOD_CONNECTIONS];
        try {
            while (flooding.get()) {
                for (int i = 0; i < channels.length && flooding.get(); i++) {
                    try {
                        if (channels[i] == null) {
                            channels[i] = SocketChannel.open(address);
                            channels[i].configureBlocking(false);
                            opened.incrementAndGet();
                        }
                        // Never blocks: what does not fit in the socket's buffers is dropped.
                        channels[i].write(ByteBuffer.wrap(PIPELINED));
                    } catch (IOException closedByServer) {
                        close(channels[i]);
                        channels[i] = null;
                    }
                }
                Thread.sleep(50);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            for (SocketChannel channel : channels) {
                close(channel);
            }
        }
    }

    private static void close(SocketChannel channel) {
        if (channel != null) {
            try {
                channel.close();
            } catch (IOException ignored) {
                // already gone
            }
        }
    }
}
