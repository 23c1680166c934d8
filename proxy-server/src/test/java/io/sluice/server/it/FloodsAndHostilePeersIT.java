package io.sluice.server.it;

import io.sluice.pulsar.codec.proto.BaseCommand;
import io.sluice.quota.LimitsJson;
import io.sluice.status.TopicMeter;
import io.sluice.testbroker.PulsarBroker;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Floods and hostile peers against an in-process Sluice in front of the shared broker, while a
 * {@link SteadyNeighbour} keeps producing and consuming through the same Sluice. Each test checks
 * that Sluice stays up, the neighbour keeps its round trips, and the test JVM's memory (Sluice's
 * included) stays under {@link #HEAP_BOUND} heap and {@link #DIRECT_BOUND} direct memory.
 * The last figures are in docs/RELIABILITY.md.
 */
class FloodsAndHostilePeersIT {

    /** Heap in use, garbage included, by the whole test JVM (-Xmx1g): pulsar clients, Sluice and the test. */
    static final long HEAP_BOUND = 768L << 20;
    /** Direct memory Netty holds: Sluice's buffers (the shaded pulsar-client counts its own). */
    static final long DIRECT_BOUND = 96L << 20;
    /** Idle connections: 2,000 sockets here and 2,000 in Sluice fit well under `ulimit -n` (20,000 here). */
    static final int IDLE_CONNECTIONS = 2_000;
    static final int STALLED_CONNECTIONS = 200;
    static final int SLOWLORIS_CONNECTIONS = 200;
    static final int ADMIN_BURST = 1_000;
    /** Connection limits for the flooding client: small, so that pausing happens within a second. */
    static final long MAX_HELD_BYTES = 1L << 20;

    private static final PulsarBroker broker = PulsarBroker.shared();
    private static RunningSluice sluice;
    private static final Map<String, String> figures = new TreeMap<>();
    private SteadyNeighbour neighbour;
    private MemoryWatch memory;

    @BeforeAll
    static void startSluice() {
        sluice = RunningSluice.frontProxy(broker);
    }

    @AfterAll
    static void stopSluice() {
        sluice.close();
        figures.forEach((name, value) -> System.out.println("[reliability] " + name + ": " + value));
    }

    @BeforeEach
    void startNeighbour() throws Exception {
        memory = new MemoryWatch();
        neighbour = new SteadyNeighbour(sluice.serviceUrl);
        neighbour.awaitRoundTrips(0, 5);
    }

    @AfterEach
    void checkNeighbourAndMemory() throws Exception {
        long before = neighbour.roundTrips.get();
        neighbour.awaitRoundTrips(before, 5);
        neighbour.close();
        memory.close();
        assertEquals(0, neighbour.failures.get(), "the neighbour's sends or receives failed");
        assertTrue(memory.peakHeapBytes() < HEAP_BOUND, memory.summary());
        assertTrue(memory.peakDirectBytes() < DIRECT_BOUND, memory.summary());
    }

    @Test
    void twoThousandIdleConnectionsCostLittleAndChangeNothingForOthers() throws Exception {
        long directBefore = MemoryWatch.directNow();
        long openBefore = sluice.server.stats().openConnections();
        List<Socket> idle = new ArrayList<>();
        try {
            for (int i = 0; i < IDLE_CONNECTIONS; i++) {
                idle.add(new Socket("127.0.0.1", sluice.server.proxyPort()));
            }
            waitFor(() -> sluice.server.stats().openConnections() >= openBefore + IDLE_CONNECTIONS, 30);
            long since = neighbour.roundTrips.get();
            neighbour.awaitRoundTrips(since, 20);
            long perConnection = (MemoryWatch.directNow() - directBefore) / IDLE_CONNECTIONS;
            figures.put("idle connections", IDLE_CONNECTIONS + " open, direct memory per connection " + perConnection
                    + " B, neighbour slowest round trip " + neighbour.slowestMillis.get() + " ms, " + memory.summary());
            assertTrue(perConnection < 4096, "direct bytes per idle connection: " + perConnection);
        } finally {
            for (Socket socket : idle) {
                socket.close();
            }
        }
        waitFor(() -> sluice.server.stats().openConnections() <= openBefore, 30);
    }

    @Test
    void halfFramesThatStallAndA2GiBLengthHurtOnlyTheirOwnConnections() throws Exception {
        List<Socket> stalled = new ArrayList<>();
        try (RawPulsarClient probe = new RawPulsarClient(sluice.server.proxyPort())) {
            assertEquals(BaseCommand.Type.CONNECTED, probe.connect().getType());
            // After a real handshake: a frame header declaring 2 GiB - 1 bytes closes the connection at once.
            probe.write(new byte[] {0x7f, (byte) 0xff, (byte) 0xff, (byte) 0xff, 0, 0, 0, 8});
            assertTrue(probe.closedByPeer(), "a 2 GiB frame closes its connection");
        }
        byte[] connect = RawPulsarClient.connectFrame();
        try {
            for (int i = 0; i < STALLED_CONNECTIONS; i++) {
                Socket socket = new Socket("127.0.0.1", sluice.server.proxyPort());
                OutputStream out = socket.getOutputStream();
                out.write(connect, 0, connect.length / 2);
                out.flush();
                stalled.add(socket);
            }
            long since = neighbour.roundTrips.get();
            neighbour.awaitRoundTrips(since, 20);
            figures.put("stalled half frames", STALLED_CONNECTIONS + " connections stalled mid-frame, held open by Sluice"
                    + " (no handshake timeout); neighbour slowest round trip " + neighbour.slowestMillis.get() + " ms");
        } finally {
            for (Socket socket : stalled) {
                socket.close();
            }
        }
    }

    @Test
    void aClientThatNeverReadsItsReceiptsIsPausedAndHoldsNoMoreThanItsLimits() throws Exception {
        String topic = "persistent://public/default/never-reads-" + System.nanoTime();
        sluice.server.limits().replace(LimitsJson.parseDocument(("""
                {"topics": {"%s": {"publish": {"messagesPerSecond": 50}}},
                 "connection": {"maxPendingSends": 100000, "maxHeldBytes": %d}}""").formatted(topic, MAX_HELD_BYTES)
                .getBytes(StandardCharsets.UTF_8)));
        AtomicLong written = new AtomicLong();
        long peakHeld = 0;
        try (RawPulsarClient flooder = new RawPulsarClient(sluice.server.proxyPort())) {
            assertEquals(BaseCommand.Type.CONNECTED, flooder.connect().getType());
            BaseCommand created = flooder.producer(1, topic);
            assertEquals(BaseCommand.Type.PRODUCER_SUCCESS, created.getType(), created::toString);
            Thread writer = new Thread(() -> {
                byte[] payload = new byte[1024];
                try {
                    for (long seq = 0; ; seq++) {
                        byte[] frame = RawPulsarClient.send(1, seq, payload);
                        flooder.write(frame);
                        written.addAndGet(frame.length);
                    }
                } catch (IOException e) {
                    // Closed at the end of the test.
                }
            }, "never-reads");
            writer.setDaemon(true);
            writer.start();
            // Held bytes rise to the limit, then reading stops: what the client managed to write levels off.
            long levelled = -1;
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(8);
            while (System.nanoTime() < deadline) {
                Thread.sleep(500);
                peakHeld = Math.max(peakHeld, heldBytes(topic));
                long now = written.get();
                if (now == levelled) {
                    break;
                }
                levelled = now;
            }
            assertEquals(levelled, written.get(), "the client can still write: Sluice did not pause it");
            Thread.sleep(1_000);
            peakHeld = Math.max(peakHeld, heldBytes(topic));
            long since = neighbour.roundTrips.get();
            neighbour.awaitRoundTrips(since, 20);
            figures.put("receipts never read", "client wrote " + (written.get() >> 10) + " KiB before being paused; Sluice held at most "
                    + (peakHeld >> 10) + " KiB (limit " + (MAX_HELD_BYTES >> 10) + " KiB); " + memory.summary());
            // One frame may cross the limit before reading stops.
            assertTrue(peakHeld <= MAX_HELD_BYTES + 2048, "held " + peakHeld);
            assertTrue(peakHeld > MAX_HELD_BYTES / 2, "the limit was never approached: held " + peakHeld);
        } finally {
            sluice.server.limits().replace(io.sluice.quota.LimitsDocument.empty());
        }
    }

    @Test
    void slowlorisAdminClientsDoNotStopTheAdminApiNorABurstOfRequests() throws Exception {
        HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(Duration.ofSeconds(5)).build();
        List<Socket> slow = new ArrayList<>();
        byte[] partial = "GET /healthz HTTP/1.1\r\nHost: sluice\r\nX-Slow: ".getBytes(StandardCharsets.US_ASCII);
        try {
            for (int i = 0; i < SLOWLORIS_CONNECTIONS; i++) {
                slow.add(new Socket("127.0.0.1", sluice.server.adminPort()));
            }
            // Headers one byte at a time across all slow connections, interleaved with real requests.
            for (int b = 0; b < partial.length; b++) {
                for (Socket socket : slow) {
                    socket.getOutputStream().write(partial[b]);
                    socket.getOutputStream().flush();
                }
                HttpResponse<String> health = http.send(HttpRequest.newBuilder(URI.create(sluice.adminUrl() + "/healthz"))
                        .timeout(Duration.ofSeconds(5)).build(), HttpResponse.BodyHandlers.ofString());
                assertEquals(200, health.statusCode());
            }
            long start = System.nanoTime();
            Semaphore window = new Semaphore(32);
            List<CompletableFuture<HttpResponse<String>>> burst = new ArrayList<>();
            for (int i = 0; i < ADMIN_BURST; i++) {
                window.acquire();
                String path = i % 2 == 0 ? "/api/v1/limits" : "/healthz";
                burst.add(http.sendAsync(HttpRequest.newBuilder(URI.create(sluice.adminUrl() + path))
                                .timeout(Duration.ofSeconds(20)).build(), HttpResponse.BodyHandlers.ofString())
                        .whenComplete((r, e) -> window.release()));
            }
            long ok = 0;
            for (CompletableFuture<HttpResponse<String>> response : burst) {
                if (response.get(30, TimeUnit.SECONDS).statusCode() == 200) {
                    ok++;
                }
            }
            long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
            figures.put("admin slowloris and burst", SLOWLORIS_CONNECTIONS + " slow header senders held open; burst of "
                    + ADMIN_BURST + " requests: " + ok + " answered 200 in " + millis + " ms; " + memory.summary());
            assertEquals(ADMIN_BURST, ok);
        } finally {
            for (Socket socket : slow) {
                socket.close();
            }
        }
    }

    private static long heldBytes(String topic) {
        long held = 0;
        for (TopicMeter meter : sluice.server.services().topics().meters()) {
            if (meter.topic().equals(topic)) {
                held += meter.heldBytes();
            }
        }
        return held;
    }

    static void waitFor(java.util.function.BooleanSupplier condition, int seconds) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("condition not met within " + seconds + " s");
            }
            Thread.sleep(20);
        }
    }
}
