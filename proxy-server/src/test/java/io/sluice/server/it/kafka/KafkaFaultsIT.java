package io.sluice.server.it.kafka;

import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.TimeoutException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;
import java.util.stream.IntStream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Hostile peers, readiness and admission control on the Kafka port, while a steady producer keeps
 * producing through the same Sluice: each bad connection is closed alone, with its reason counted,
 * and the producer notices nothing.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class KafkaFaultsIT {

    private static final int HANDSHAKE_TIMEOUT_SECONDS = 2;
    private static final int MAX_CONNECTIONS = 200;
    private static final int FRAME_TIMEOUT_SECONDS = 5;
    private static final String REFUSED_CONSUMERS =
            "sluice_admission_rejections_total{mode=\"enforced\",type=\"new_consumer\"}";

    private static SluiceForKafka sluice;
    private static KafkaClients clients;
    private static String steadyTopic;

    private final AtomicBoolean producing = new AtomicBoolean(true);
    private final AtomicLong acknowledged = new AtomicLong();
    private final AtomicLong failed = new AtomicLong();
    private Thread steady;
    private KafkaProducer<String, String> producer;

    @BeforeAll
    static void start() throws Exception {
        BrokersOnlySluiceReaches brokers = BrokersOnlySluiceReaches.get();
        sluice = SluiceForKafka.startWithHeap(
                "256m",
                brokers,
                brokers.plaintextBootstrap(),
                "--handshake-timeout",
                Integer.toString(HANDSHAKE_TIMEOUT_SECONDS),
                "--max-connections",
                Integer.toString(MAX_CONNECTIONS),
                "--frame-timeout",
                Integer.toString(FRAME_TIMEOUT_SECONDS),
                // Low enough that 30 connections pass it within the frame timeout however loaded the machine.
                "--max-buffered-bytes",
                "16MiB");
        clients = new KafkaClients(sluice.bootstrap());
        steadyTopic = KafkaClientsIT.unique("steady");
        clients.createTopics(3, steadyTopic);
    }

    @AfterAll
    static void stop() {
        if (sluice != null) {
            sluice.closeCheckingLeaks();
        }
    }

    @BeforeEach
    void startSteadyProducer() throws Exception {
        producer = clients.producer(ProducerConfig.CLIENT_ID_CONFIG, "steady");
        steady = new Thread(
                () -> {
                    for (int i = 0; producing.get(); i++) {
                        producer.send(new ProducerRecord<>(steadyTopic, Integer.toString(i)), (metadata, error) -> {
                            if (error == null) {
                                acknowledged.incrementAndGet();
                            } else {
                                failed.incrementAndGet();
                            }
                        });
                        sleep(10);
                    }
                },
                "steady-producer");
        steady.start();
        KafkaClientsIT.await(() -> acknowledged.get() > 20, "the steady producer under way");
    }

    @AfterEach
    void stopSteadyProducer() throws Exception {
        producing.set(false);
        steady.join();
        producer.close();
        assertEquals(0, failed.get(), "the steady producer saw errors");
    }

    @Test
    @Order(1)
    void readyWithAKafkaUpstream() {
        assertEquals(200, sluice.get("/readyz").statusCode());
        assertTrue(sluice.metric("sluice_connections{protocol=\"kafka\"}") >= 1);
    }

    @Test
    @Order(2)
    void randomBytesCloseThatConnectionOnly() throws Exception {
        byte[] noise = new byte[64 * 1024];
        new Random(13).nextBytes(noise);
        assertClosedAlone(noise, null);
    }

    @Test
    @Order(3)
    void aTwoGibibyteSizeHeaderIsRefusedBeforeAnyBodyIsBuffered() throws Exception {
        assertClosedAlone(ByteBuffer.allocate(4).putInt(0x8000_0000).array(), "bad_length");
        assertClosedAlone(ByteBuffer.allocate(4).putInt(Integer.MAX_VALUE).array(), "frame_too_large");
    }

    @Test
    @Order(4)
    void halfAFrameStalledIsClosedByTheHandshakeTimeout() throws Exception {
        byte[] half = ByteBuffer.allocate(14)
                .putInt(100)
                .putShort((short) 18)
                .putShort((short) 3)
                .putInt(1)
                .array();
        long start = System.nanoTime();
        assertClosedAlone(half, "handshake_timeout");
        assertTrue(System.nanoTime() - start
                >= Duration.ofSeconds(HANDSHAKE_TIMEOUT_SECONDS).toNanos() - 200_000_000L);
    }

    @Test
    @Order(5)
    void anUnknownApiKeyClosesThatConnectionOnly() throws Exception {
        ByteBuffer frame = ByteBuffer.allocate(4 + 10);
        frame.putInt(10).putShort((short) 9_999).putShort((short) 0).putInt(7).putShort((short) -1);
        assertClosedAlone(frame.array(), "unknown_api_key");
    }

    @Test
    @Order(6)
    void thirtyConnectionsStreaming90MebibyteFramesBeforeAuthenticatingAreClosedAndMemoryStaysBounded()
            throws Exception {
        String series = "sluice_protocol_errors_total{protocol=\"kafka\",reason=\"frame_too_large\"}";
        double refusedBefore = sluice.metric(series);
        long ackedBefore = acknowledged.get();
        Hostile hostile = Hostile.start(30, () -> streamHugeFrame(false, Integer.MAX_VALUE));
        hostile.await();

        assertEquals(30, hostile.closed(), "hostile connections Sluice kept open");
        KafkaClientsIT.await(() -> sluice.metric(series) >= refusedBefore + 30, "each counted as frame_too_large");
        KafkaClientsIT.await(() -> acknowledged.get() > ackedBefore + 10, "the steady producer going on");
        long peakKib = peakResidentKib(sluice.process.pid());
        System.out.println("Sluice at -Xmx256m: peak RSS " + peakKib / 1024 + " MiB after 30 hostile 90 MiB frames");
        assertTrue(peakKib < 600 * 1024, "peak RSS " + peakKib / 1024 + " MiB");
    }

    @Test
    @Order(7)
    void connectionsPastMaxConnectionsAreClosedAtOnceAndCountedWhileThoseWithinAreServed() throws Exception {
        String series = "sluice_connections_refused_total{protocol=\"kafka\",reason=\"max_connections\"}";
        double refusedBefore = sluice.metric(series);
        int alreadyOpen = (int) sluice.metric("sluice_connections{protocol=\"kafka\"}");
        List<Socket> sockets = new ArrayList<>();
        try {
            for (int i = 0; i < 300; i++) {
                Socket socket = new Socket();
                socket.connect(new InetSocketAddress("127.0.0.1", sluice.kafkaPort), 5_000);
                socket.setSoTimeout(10_000);
                sockets.add(socket);
                // At once: a connection silent for the handshake timeout would be closed for that.
                sendApiVersions(socket);
            }
            int served = 0;
            int refused = 0;
            for (Socket socket : sockets) {
                if (apiVersionsAnswered(socket)) {
                    served++;
                } else {
                    refused++;
                }
            }
            System.out.println(served + " of 300 connections served, " + refused + " refused; " + alreadyOpen
                    + " client connections were open before");
            assertEquals(MAX_CONNECTIONS - alreadyOpen, served, "served within --max-connections");
            assertEquals(300 - served, refused);
            double counted = refusedBefore + refused;
            KafkaClientsIT.await(() -> sluice.metric(series) == counted, "every refusal counted");
        } finally {
            for (Socket socket : sockets) {
                socket.close();
            }
        }
    }

    @Test
    @Order(8)
    void thirtyConnectionsStreaming90MebibyteFramesAfterApiVersionsAreStoppedAtTheBoundThenClosed() throws Exception {
        double bound = sluice.metric("sluice_buffered_bytes_limit");
        String timeouts = "sluice_protocol_errors_total{protocol=\"kafka\",reason=\"frame_timeout\"}";
        double timeoutsBefore = sluice.metric(timeouts);
        double stopsBefore = sluice.metric("sluice_buffered_bytes_stops_total");
        long ackedBefore = acknowledged.get();
        long start = System.nanoTime();
        Hostile hostile = Hostile.start(30, () -> streamHugeFrame(true, Integer.MAX_VALUE));
        double peakBuffered = 0;
        double peakHeap = 0;
        long giveUp = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (!hostile.done() && System.nanoTime() < giveUp) {
            String metrics = sluice.metrics();
            peakBuffered = Math.max(peakBuffered, SluiceForKafka.sample(metrics, "sluice_buffered_bytes"));
            peakHeap = Math.max(peakHeap, SluiceForKafka.sample(metrics, "jvm_memory_used_bytes{area=\"heap\"}"));
            Thread.sleep(100);
        }
        long seconds = TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - start);

        assertEquals(30, hostile.closed(), "hostile connections Sluice kept open");
        KafkaClientsIT.await(() -> sluice.metric(timeouts) >= timeoutsBefore + 30, "each counted as frame_timeout");
        assertTrue(sluice.metric("sluice_buffered_bytes_stops_total") > stopsBefore, "nobody stopped being read");
        assertTrue(acknowledged.get() > ackedBefore + 10 * seconds, "the steady producer stalled");
        long peakKib = peakResidentKib(sluice.process.pid());
        System.out.printf(
                "Sluice at -Xmx256m, 30 x 90 MiB frames after ApiVersions: closed after %d s, buffered at most %d MiB"
                        + " (bound %d MiB), heap at most %d MiB, peak RSS %d MiB; the steady producer %d acknowledged%n",
                seconds,
                (long) peakBuffered >> 20,
                (long) bound >> 20,
                (long) peakHeap >> 20,
                peakKib / 1024,
                acknowledged.get() - ackedBefore);
        // An eighth over the bound at most, and a read (up to 64 KiB) per connection as it stops.
        assertTrue(
                peakBuffered <= bound * 9 / 8 + 30 * 64 * 1024, "buffered " + peakBuffered + " bytes, bound " + bound);
        assertTrue(peakKib < 600 * 1024, "peak RSS " + peakKib / 1024 + " MiB");
    }

    @Test
    @Order(9)
    void framesTrickledAfterApiVersionsAreClosedAfterTheFrameTimeout() throws Exception {
        String timeouts = "sluice_protocol_errors_total{protocol=\"kafka\",reason=\"frame_timeout\"}";
        double timeoutsBefore = sluice.metric(timeouts);
        long start = System.nanoTime();
        Hostile hostile = Hostile.start(30, () -> streamHugeFrame(true, 1024));
        hostile.await();
        long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);

        assertEquals(30, hostile.closed(), "trickling connections Sluice kept open");
        KafkaClientsIT.await(() -> sluice.metric(timeouts) >= timeoutsBefore + 30, "each counted as frame_timeout");
        System.out.println("30 frames trickled at 1 KiB/s closed after " + millis + " ms");
        assertTrue(millis >= FRAME_TIMEOUT_SECONDS * 1_000L - 200, "closed before the frame timeout: " + millis);
        assertTrue(millis < (FRAME_TIMEOUT_SECONDS + 5) * 1_000L, "closed late: " + millis);
    }

    /**
     * Announces a 90 MiB Produce and streams its body at {@code bytesPerSecond} (full speed:
     * {@link Integer#MAX_VALUE}) until Sluice closes the connection; whether it did. With
     * {@code apiVersionsFirst} it sends ApiVersions and reads the answer before.
     */
    private boolean streamHugeFrame(boolean apiVersionsFirst, int bytesPerSecond) {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress("127.0.0.1", sluice.kafkaPort), 5_000);
            socket.setSoTimeout(30_000);
            if (apiVersionsFirst) {
                sendApiVersions(socket);
                if (!wholeApiVersionsAnswer(socket)) {
                    return false;
                }
            }
            OutputStream out = socket.getOutputStream();
            int chunkSize = bytesPerSecond == Integer.MAX_VALUE ? 64 * 1024 : 256;
            byte[] chunk = new byte[chunkSize];
            ByteBuffer.wrap(chunk)
                    .putInt(90 << 20)
                    .putShort((short) 0)
                    .putShort((short) 9)
                    .putInt(1);
            try {
                for (long sent = 0; sent < 90 << 20; sent += chunk.length) {
                    out.write(chunk);
                    out.flush();
                    chunk[0] = 0;
                    if (bytesPerSecond != Integer.MAX_VALUE) {
                        Thread.sleep(1_000L * chunk.length / bytesPerSecond);
                    }
                }
            } catch (SocketException closedWhileWriting) {
                return true;
            }
            return closed(socket.getInputStream());
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /** Reads a whole ApiVersions answer; whether it came. */
    private static boolean wholeApiVersionsAnswer(Socket socket) throws IOException {
        InputStream in = socket.getInputStream();
        byte[] size = in.readNBytes(4);
        if (size.length < 4) {
            return false;
        }
        byte[] answer = in.readNBytes(ByteBuffer.wrap(size).getInt());
        return answer.length >= 4 && ByteBuffer.wrap(answer).getInt() == 42;
    }

    /** Hostile connections, each on a thread of its own, and how many of them Sluice closed. */
    private static final class Hostile {

        private final List<Thread> threads = new ArrayList<>();
        private final AtomicInteger closed = new AtomicInteger();

        /** Starts {@code count} connections, each running {@code connection} (true: Sluice closed it). */
        static Hostile start(int count, BooleanSupplier connection) {
            Hostile hostile = new Hostile();
            for (int i = 0; i < count; i++) {
                Thread thread = new Thread(() -> {
                    if (connection.getAsBoolean()) {
                        hostile.closed.incrementAndGet();
                    }
                });
                thread.start();
                hostile.threads.add(thread);
            }
            return hostile;
        }

        boolean done() {
            return threads.stream().noneMatch(Thread::isAlive);
        }

        void await() throws InterruptedException {
            for (Thread thread : threads) {
                thread.join(60_000);
            }
        }

        int closed() {
            return closed.get();
        }
    }

    /** Sends ApiVersions v0, correlation id 42; a connection Sluice closed may refuse the bytes. */
    private static void sendApiVersions(Socket socket) throws IOException {
        ByteBuffer request = ByteBuffer.allocate(14)
                .putInt(10)
                .putShort((short) 18)
                .putShort((short) 0)
                .putInt(42)
                .putShort((short) -1);
        try {
            socket.getOutputStream().write(request.array());
        } catch (SocketException closed) {
            // Refused at accept: what apiVersionsAnswered finds.
        }
    }

    /** Whether ApiVersions was answered; false when Sluice closed the connection instead. */
    private static boolean apiVersionsAnswered(Socket socket) throws IOException {
        try {
            byte[] head = socket.getInputStream().readNBytes(8);
            return head.length == 8 && ByteBuffer.wrap(head).getInt(4) == 42;
        } catch (SocketException reset) {
            return false;
        }
    }

    /** The peak resident set of process {@code pid} in KiB, as Linux reports it (VmHWM). */
    private static long peakResidentKib(long pid) throws IOException {
        for (String line : Files.readAllLines(Path.of("/proc/" + pid + "/status"))) {
            if (line.startsWith("VmHWM:")) {
                return Long.parseLong(line.replaceAll("[^0-9]", ""));
            }
        }
        throw new IOException("no VmHWM in /proc/" + pid + "/status");
    }

    @Test
    @Order(90)
    void admissionControlRefusesNewConnectionsAndMetadataWhileTheSteadyProducerGoesOn() throws Exception {
        try (KafkaProducer<String, String> idle = clients.producer(ProducerConfig.MAX_BLOCK_MS_CONFIG, "2000")) {
            // Connected to every broker first, so that its next Metadata request goes out on a connection it has.
            for (int partition = 0; partition < 3; partition++) {
                idle.send(new ProducerRecord<>(steadyTopic, partition, null, "idle"))
                        .get();
            }
            openTheBreakers();
            try {
                long before = acknowledged.get();
                assertClosedAlone(new byte[0], null);
                assertThrows(TimeoutException.class, () -> idle.partitionsFor(KafkaClientsIT.unique("refused")));
                KafkaClientsIT.await(() -> acknowledged.get() > before + 50, "the steady producer going on");
                KafkaClientsIT.await(
                        () -> sluice.metric(
                                                "sluice_admission_rejections_total{mode=\"enforced\",type=\"new_connection\"}")
                                        > 0
                                && sluice.metric(
                                                "sluice_admission_rejections_total{mode=\"enforced\",type=\"metadata\"}")
                                        > 0,
                        "refused connections and Metadata requests counted");
            } finally {
                admission("{\"mode\":\"disabled\"}");
            }
            idle.partitionsFor(steadyTopic);
        }
    }

    @Test
    @Order(91)
    void admissionControlRefusesNewConsumersAndProducersWhoBackOffAndSucceedOnceTheBreakersClose() throws Exception {
        String group = KafkaClientsIT.unique("admitted-later");
        List<TopicPartition> partitions = IntStream.range(0, 3)
                .mapToObj(partition -> new TopicPartition(steadyTopic, partition))
                .toList();
        try (KafkaConsumer<String, String> consumer = clients.consumer(
                ConsumerConfig.GROUP_ID_CONFIG, group, ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false")) {
            // Fetching from every broker and knowing the group's coordinator (from a commit), so that its
            // JoinGroup goes out on a connection it has rather than a new one, which would be refused first.
            consumer.assign(partitions);
            consumer.poll(Duration.ofSeconds(1));
            consumer.commitSync(Map.of(partitions.get(0), new OffsetAndMetadata(0)));
            openTheBreakers();
            ExecutorService newProducer = Executors.newSingleThreadExecutor();
            try {
                double refused = sluice.metric(REFUSED_CONSUMERS);
                consumer.unsubscribe();
                consumer.subscribe(List.of(steadyTopic));
                assertTrue(consumer.poll(Duration.ofSeconds(2)).isEmpty(), "joined while admission control refuses");
                assertTrue(consumer.assignment().isEmpty());
                KafkaClientsIT.await(() -> sluice.metric(REFUSED_CONSUMERS) > refused, "JoinGroup refused and counted");
                Future<?> acknowledged = newProducer.submit(() -> {
                    try (KafkaProducer<String, String> late =
                            clients.producer(ProducerConfig.CLIENT_ID_CONFIG, "late")) {
                        return late.send(new ProducerRecord<>(steadyTopic, "late"))
                                .get();
                    }
                });
                Thread.sleep(2_000);
                assertFalse(acknowledged.isDone(), "a new producer admitted while admission control refuses");
                admission("{\"mode\":\"disabled\"}");
                acknowledged.get(60, TimeUnit.SECONDS);
            } finally {
                admission("{\"mode\":\"disabled\"}");
                newProducer.shutdownNow();
            }
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            int received = 0;
            while (received == 0 && System.nanoTime() < deadline) {
                received += consumer.poll(Duration.ofMillis(500)).count();
            }
            assertTrue(received > 0, "the consumer never joined its group once the breakers closed");
            assertEquals(3, consumer.assignment().size());
        }
    }

    private static void openTheBreakers() throws Exception {
        admission("{\"mode\":\"enforced\",\"thresholds\":{\"cpu\":null,\"heap\":0.0001,\"direct_memory\":null,"
                + "\"event_loop_lag\":null,\"upstream_connect_failures\":null,\"upstream_latency_p99\":null},"
                + "\"sampleIntervalMillis\":100,\"openAfterBreaches\":1,\"coolDownMillis\":60000}");
        KafkaClientsIT.await(
                () -> sluice.metric("sluice_admission_state{type=\"new_consumer\"}") == 2
                        && sluice.metric("sluice_admission_state{type=\"new_connection\"}") == 2
                        && sluice.metric("sluice_admission_state{type=\"metadata\"}") == 2,
                "the breakers open");
    }

    /**
     * Opens a raw connection, sends {@code bytes} and checks that Sluice closes it, counting
     * {@code reason} (any reason when null), while the steady producer goes on.
     */
    private void assertClosedAlone(byte[] bytes, String reason) throws Exception {
        String series = "sluice_protocol_errors_total{protocol=\"kafka\",reason=\"" + reason + "\"}";
        double errorsBefore = reason == null ? 0 : sluice.metric(series);
        long ackedBefore = acknowledged.get();
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress("127.0.0.1", sluice.kafkaPort), 5_000);
            socket.setSoTimeout((HANDSHAKE_TIMEOUT_SECONDS + 10) * 1_000);
            OutputStream out = socket.getOutputStream();
            InputStream in = socket.getInputStream();
            try {
                out.write(bytes);
                out.flush();
            } catch (SocketException closedWhileWriting) {
                // Closed before the last bytes went out: what is checked below.
            }
            assertTrue(closed(in), "Sluice kept the connection open");
        }
        if (reason != null) {
            KafkaClientsIT.await(() -> sluice.metric(series) > errorsBefore, "a " + reason + " protocol error counted");
        }
        KafkaClientsIT.await(() -> acknowledged.get() > ackedBefore + 10, "the steady producer going on");
    }

    private static boolean closed(InputStream in) throws IOException {
        try {
            while (true) {
                if (in.read() < 0) {
                    return true;
                }
            }
        } catch (SocketException reset) {
            return true;
        } catch (java.net.SocketTimeoutException stillOpen) {
            return false;
        }
    }

    private static void admission(String json) throws Exception {
        HttpResponse<String> response = HttpClient.newHttpClient()
                .send(
                        HttpRequest.newBuilder(URI.create(sluice.adminUrl() + "/api/v1/admission"))
                                .header("Content-Type", "application/json")
                                .PUT(HttpRequest.BodyPublishers.ofString(json))
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
        assertEquals(200, response.statusCode(), response.body());
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
