package io.sluice.server.it;

import io.sluice.limits.LimitsJson;
import io.sluice.pulsar.codec.proto.BaseCommand;
import io.sluice.status.TopicMeter;
import io.sluice.testkit.pulsar.PulsarBroker;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketException;
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
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Floods and hostile peers against an in-process Sluice in front of the shared broker, while a
 * {@link SteadyNeighbour} keeps producing and consuming through the same Sluice. Each test checks
 * that Sluice stays up, the neighbour keeps its round trips, and the test JVM's memory (Sluice's
 * included) stays under {@link #HEAP_BOUND} heap and {@link #DIRECT_BOUND} direct memory.
 * Peers that stall are the business of the handshake and admin idle timeouts, so their tests run
 * against a second Sluice whose timeouts are {@link #SHORT_TIMEOUT}.
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
    /** The handshake and admin idle timeouts of {@link #strict}: short, to keep the test short. */
    static final Duration SHORT_TIMEOUT = Duration.ofSeconds(2);
    /** Admin connections a peer opens and holds. */
    static final int HELD_ADMIN_CONNECTIONS = 5_000;
    /** How long a stalled connection may stay open before the test decides Sluice never closes it. */
    static final long CLOSE_DEADLINE_SECONDS = 30;

    private static final PulsarBroker broker = PulsarBroker.shared();
    /** Default timeouts (30 s): connections that never send a byte stay open while the test looks at them. */
    private static RunningSluice sluice;
    /** Handshake and admin idle timeouts of {@link #SHORT_TIMEOUT}. */
    private static RunningSluice strict;

    private static final Map<String, String> figures = new TreeMap<>();
    private SteadyNeighbour neighbour;
    private MemoryWatch memory;

    @BeforeAll
    static void startSluice() {
        sluice = RunningSluice.frontProxy(broker);
        strict = RunningSluice.frontProxy(broker, SHORT_TIMEOUT, SHORT_TIMEOUT);
    }

    @AfterAll
    static void stopSluice() {
        sluice.close();
        strict.close();
        figures.forEach((name, value) -> System.out.println("[reliability] " + name + ": " + value));
    }

    @BeforeEach
    void watchMemory() {
        memory = new MemoryWatch();
    }

    /** Starts the well-behaved client every test watches, through the Sluice the test is about. */
    private void startNeighbour(RunningSluice through) throws Exception {
        neighbour = new SteadyNeighbour(through.serviceUrl);
        neighbour.awaitRoundTrips(0, 5);
    }

    @AfterEach
    void checkNeighbourAndMemory() throws Exception {
        assertNotNull(neighbour, "the test started no neighbour");
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
        startNeighbour(sluice);
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
            figures.put(
                    "idle connections",
                    IDLE_CONNECTIONS + " open, direct memory per connection " + perConnection
                            + " B, neighbour slowest round trip " + neighbour.slowestMillis.get() + " ms, "
                            + memory.summary());
            assertTrue(perConnection < 4096, "direct bytes per idle connection: " + perConnection);
        } finally {
            for (Socket socket : idle) {
                socket.close();
            }
        }
        waitFor(() -> sluice.server.stats().openConnections() <= openBefore, 30);
    }

    @Test
    void halfFramesThatStallAreClosedByTheHandshakeTimeoutAndA2GiBLengthAtOnce() throws Exception {
        startNeighbour(strict);
        long timeoutsBefore = handshakeTimeouts();
        byte[] connect = RawPulsarClient.connectFrame();
        List<Socket> stalled = new ArrayList<>();
        long start = System.nanoTime();
        try {
            for (int i = 0; i < STALLED_CONNECTIONS; i++) {
                Socket socket = new Socket("127.0.0.1", strict.server.proxyPort());
                socket.setSoTimeout((int) TimeUnit.SECONDS.toMillis(CLOSE_DEADLINE_SECONDS));
                OutputStream out = socket.getOutputStream();
                out.write(connect, 0, connect.length / 2);
                out.flush();
                stalled.add(socket);
            }
            try (RawPulsarClient probe = new RawPulsarClient(strict.server.proxyPort())) {
                assertEquals(BaseCommand.Type.CONNECTED, probe.connect().getType(), "a new client's handshake");
                // After a real handshake: a frame header declaring 2 GiB - 1 bytes closes the connection at once.
                probe.write(new byte[] {0x7f, (byte) 0xff, (byte) 0xff, (byte) 0xff, 0, 0, 0, 8});
                assertTrue(probe.closedByPeer(), "a 2 GiB frame closes its connection");
            }
            long since = neighbour.roundTrips.get();
            for (Socket socket : stalled) {
                assertTrue(closedBySluice(socket), "a stalled connection is still open");
            }
            long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
            neighbour.awaitRoundTrips(since, 20);
            assertEquals(
                    timeoutsBefore + STALLED_CONNECTIONS,
                    handshakeTimeouts(),
                    "connections closed for handshake_timeout");
            assertTrue(millis >= SHORT_TIMEOUT.toMillis(), "closed after " + millis + " ms, before the timeout");
            figures.put(
                    "stalled half frames",
                    STALLED_CONNECTIONS + " connections stalled mid-frame, all closed by the "
                            + SHORT_TIMEOUT.toSeconds() + " s handshake timeout " + millis
                            + " ms after the first was opened; "
                            + "neighbour slowest round trip " + neighbour.slowestMillis.get() + " ms; "
                            + memory.summary());
        } finally {
            for (Socket socket : stalled) {
                socket.close();
            }
        }
    }

    @Test
    void aClientThatNeverReadsItsReceiptsIsPausedAndHoldsNoMoreThanItsLimits() throws Exception {
        startNeighbour(sluice);
        String topic = "persistent://public/default/never-reads-" + System.nanoTime();
        sluice.server
                .limits()
                .replace(LimitsJson.parseDocument(
                        ("""
                {"topics": {"%s": {"publish": {"messagesPerSecond": 50}}},
                 "connection": {"maxPendingSends": 100000, "maxHeldBytes": %d}}""").formatted(topic, MAX_HELD_BYTES).getBytes(StandardCharsets.UTF_8),
                        sluice.server.limits().catalogue()));
        AtomicLong written = new AtomicLong();
        long peakHeld = 0;
        try (RawPulsarClient flooder = new RawPulsarClient(sluice.server.proxyPort())) {
            assertEquals(BaseCommand.Type.CONNECTED, flooder.connect().getType());
            flooder.lookup(topic);
            BaseCommand created = flooder.producer(1, topic);
            assertEquals(BaseCommand.Type.PRODUCER_SUCCESS, created.getType(), created::toString);
            Thread writer = new Thread(
                    () -> {
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
                    },
                    "never-reads");
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
            figures.put(
                    "receipts never read",
                    "client wrote " + (written.get() >> 10) + " KiB before being paused; Sluice held at most "
                            + (peakHeld >> 10) + " KiB (limit " + (MAX_HELD_BYTES >> 10) + " KiB); "
                            + memory.summary());
            // One frame may cross the limit before reading stops.
            assertTrue(peakHeld <= MAX_HELD_BYTES + 2048, "held " + peakHeld);
            assertTrue(peakHeld > MAX_HELD_BYTES / 2, "the limit was never approached: held " + peakHeld);
        } finally {
            sluice.server.limits().replace(io.sluice.limits.LimitsDocument.empty());
        }
    }

    @Test
    void fiveThousandHeldAdminConnectionsLeaveProbesAndTheProxyPortAlone() throws Exception {
        startNeighbour(sluice);
        List<Socket> held = new ArrayList<>();
        List<Long> probeMillis = new ArrayList<>();
        try {
            for (int i = 0; i < HELD_ADMIN_CONNECTIONS; i++) {
                held.add(new Socket("127.0.0.1", sluice.server.adminPort()));
            }
            for (int i = 0; i < 20; i++) {
                long start = System.nanoTime();
                try (Socket probe = new Socket("127.0.0.1", sluice.server.adminPort())) {
                    probe.setSoTimeout(10_000);
                    probe.getOutputStream()
                            .write("GET /healthz HTTP/1.1\r\nHost: kubelet\r\n\r\n"
                                    .getBytes(StandardCharsets.US_ASCII));
                    byte[] status = probe.getInputStream().readNBytes(12);
                    assertEquals("HTTP/1.1 200", new String(status, StandardCharsets.US_ASCII));
                }
                probeMillis.add(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start));
                // The proxy port takes a new client meanwhile: the neighbour's connection is not enough.
                try (Socket client = new Socket("127.0.0.1", sluice.server.proxyPort())) {
                    assertTrue(client.isConnected());
                }
                Thread.sleep(50);
            }
            long since = neighbour.roundTrips.get();
            neighbour.awaitRoundTrips(since, 10);
            List<Long> sorted = probeMillis.stream().sorted().toList();
            figures.put(
                    "held admin connections",
                    HELD_ADMIN_CONNECTIONS + " held: /healthz median " + sorted.get(sorted.size() / 2) + " ms, slowest "
                            + sorted.get(sorted.size() - 1) + " ms; the proxy port accepted 20 of 20");
            assertTrue(sorted.get(sorted.size() - 1) < 10_000, "a probe waited " + sorted.get(sorted.size() - 1));
        } finally {
            for (Socket socket : held) {
                socket.close();
            }
        }
    }

    @Test
    void slowlorisAdminClientsAreCutOffAndStopNeitherTheAdminApiNorABurstOfRequests() throws Exception {
        startNeighbour(strict);
        HttpClient http = HttpClient.newBuilder()
                .version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(Duration.ofSeconds(5))
                .build();
        List<Socket> slow = new ArrayList<>();
        byte[] partial = "GET /healthz HTTP/1.1\r\nHost: sluice\r\nX-Slow: ".getBytes(StandardCharsets.US_ASCII);
        long start = System.nanoTime();
        try {
            for (int i = 0; i < SLOWLORIS_CONNECTIONS; i++) {
                slow.add(new Socket("127.0.0.1", strict.server.adminPort()));
            }
            // Headers that never end, one byte at a time on every slow connection, interleaved with real
            // requests, until Sluice has closed them all: a write fails once the connection is gone.
            List<Socket> open = new ArrayList<>(slow);
            long healthChecks = 0;
            long deadline = start + TimeUnit.SECONDS.toNanos(CLOSE_DEADLINE_SECONDS);
            for (int b = 0; !open.isEmpty(); b++) {
                assertTrue(System.nanoTime() < deadline, open.size() + " slow connections still open");
                byte next = b < partial.length ? partial[b] : (byte) 'z';
                open.removeIf(socket -> !writeByte(socket, next));
                HttpResponse<String> health = http.send(
                        HttpRequest.newBuilder(URI.create(strict.adminUrl() + "/healthz"))
                                .timeout(Duration.ofSeconds(5))
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
                assertEquals(200, health.statusCode());
                healthChecks++;
                Thread.sleep(100);
            }
            long cutOffMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
            assertTrue(
                    cutOffMillis >= SHORT_TIMEOUT.toMillis(),
                    "cut off after " + cutOffMillis + " ms, before the timeout");

            long burstStart = System.nanoTime();
            Semaphore window = new Semaphore(32);
            List<CompletableFuture<HttpResponse<String>>> burst = new ArrayList<>();
            for (int i = 0; i < ADMIN_BURST; i++) {
                window.acquire();
                String path = i % 2 == 0 ? "/api/v1/limits" : "/healthz";
                burst.add(http.sendAsync(
                                HttpRequest.newBuilder(URI.create(strict.adminUrl() + path))
                                        .timeout(Duration.ofSeconds(20))
                                        .build(),
                                HttpResponse.BodyHandlers.ofString())
                        .whenComplete((r, e) -> window.release()));
            }
            long ok = 0;
            for (CompletableFuture<HttpResponse<String>> response : burst) {
                if (response.get(30, TimeUnit.SECONDS).statusCode() == 200) {
                    ok++;
                }
            }
            long burstMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - burstStart);
            figures.put(
                    "admin slowloris and burst",
                    SLOWLORIS_CONNECTIONS + " slow header senders (a byte every 100 ms)"
                            + " all cut off by the " + SHORT_TIMEOUT.toSeconds() + " s idle timeout within "
                            + cutOffMillis
                            + " ms, " + healthChecks + " /healthz meanwhile answered 200; burst of " + ADMIN_BURST
                            + " requests: "
                            + ok + " answered 200 in " + burstMillis + " ms; " + memory.summary());
            assertEquals(ADMIN_BURST, ok);
        } finally {
            for (Socket socket : slow) {
                socket.close();
            }
        }
    }

    /** Writes one byte; false once the connection is gone (the peer closed it and answered the last byte with a reset). */
    private static boolean writeByte(Socket socket, byte b) {
        try {
            socket.getOutputStream().write(b);
            socket.getOutputStream().flush();
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    /** True once Sluice has closed the connection: end of stream or reset, before the read timeout. */
    private static boolean closedBySluice(Socket socket) throws IOException {
        try {
            return socket.getInputStream().read() < 0;
        } catch (SocketException e) {
            return true;
        }
    }

    private static long handshakeTimeouts() {
        return strict.server.stats().protocolErrors().getOrDefault("handshake_timeout", 0L);
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
