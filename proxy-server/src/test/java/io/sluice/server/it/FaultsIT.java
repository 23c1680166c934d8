package io.sluice.server.it;

import io.sluice.limits.LimitsDocument;
import io.sluice.limits.LimitsJson;
import io.sluice.pulsar.codec.proto.BaseCommand;
import io.sluice.pulsar.codec.proto.ServerError;
import io.sluice.status.TopicMeter;
import io.sluice.testkit.process.FreePorts;
import io.sluice.testkit.pulsar.PulsarBroker;
import io.sluice.testkit.sluice.SluiceProcess;
import org.apache.pulsar.client.api.Producer;
import org.apache.pulsar.client.api.ProducerBuilder;
import org.apache.pulsar.client.api.PulsarClient;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Faults under load with a checker ({@link TopicAudit}): producers send sequence-numbered
 * payloads through Sluice, and afterwards each topic is read straight from the broker and compared
 * with what the clients saw acknowledged. An acknowledged message must never be missing or out of
 * order; duplicates (a resend after a receipt lost with the connection) are counted.
 *
 * <p>Kills, stops, restarts and freezes its own broker, so the shared one stays usable for other
 * classes, and kills a Sluice running as its own process.
 */
class FaultsIT {

    /** The limit of the throttled topic in the two-topic scenarios. */
    private static final int THROTTLED_RATE = 200;

    private static final String THROTTLED_LIMIT = "{\"publish\": {\"messagesPerSecond\": " + THROTTLED_RATE + "}}";
    private static final HttpClient HTTP = HttpClient.newHttpClient();

    private static PulsarBroker broker;
    private static RunningSluice sluice;
    private static final List<String> figures = new ArrayList<>();

    @BeforeAll
    static void start() {
        broker = PulsarBroker.builder().start();
        sluice = RunningSluice.frontProxy(broker);
    }

    @AfterAll
    static void stop() {
        sluice.close();
        broker.close();
        figures.forEach(line -> System.out.println("[reliability] " + line));
    }

    @Test
    void brokerKilledAndRestartedUnderLoadLosesNoAcknowledgedMessage() throws Exception {
        TwoTopics topics = TwoTopics.named("kill");
        limit(topics.throttled(), THROTTLED_LIMIT);
        try (LoadOnTwoTopics load = new LoadOnTwoTopics(sluice.serviceUrl, topics)) {
            load.awaitMore(300, 30);
            broker.kill();
            Thread.sleep(1_000);
            broker.restart();
            load.awaitMore(300, 90);
            check("broker killed", load.audit());
        } finally {
            clearLimits();
        }
    }

    @Test
    void brokerFrozenForTenSecondsUnderLoadLosesNoAcknowledgedMessage() throws Exception {
        TwoTopics topics = TwoTopics.named("freeze");
        limit(topics.throttled(), THROTTLED_LIMIT);
        try (LoadOnTwoTopics load = new LoadOnTwoTopics(sluice.serviceUrl, topics)) {
            load.awaitMore(300, 30);
            broker.freeze();
            try {
                Thread.sleep(10_000);
            } finally {
                broker.unfreeze();
            }
            load.awaitMore(300, 60);
            check("broker frozen 10 s", load.audit());
        } finally {
            clearLimits();
        }
    }

    /**
     * Sluice crashes (SIGKILL: nothing drained, every held send dropped) and comes back on the
     * same port with the same limits file, as a supervisor would bring it back. The port still has
     * sockets in TIME_WAIT from the killed connections; the new Sluice binds it all the same
     * (Netty sets SO_REUSEADDR on server sockets). The clients reconnect on their own.
     */
    @Test
    void sluiceKilledUnderLoadAndRestartedOnItsPortLosesNoAcknowledgedMessageAndThrottlesAgain(@TempDir Path dir)
            throws Exception {
        TwoTopics topics = TwoTopics.named("sluice-killed");
        Path limits = dir.resolve("limits.json");
        Files.writeString(limits, limitsDocument(topics.throttled(), THROTTLED_LIMIT));
        int[] ports = FreePorts.loopback(2);
        int port = ports[0];
        int adminPort = ports[1];
        String[] options = {
            "--upstream",
            broker.serviceUrl(),
            "--listen",
            "127.0.0.1:" + port,
            "--admin",
            "127.0.0.1:" + adminPort,
            "--limits-file",
            limits.toString()
        };
        try (SluiceProcess sluiceProcess = SluiceProcess.start(options);
                LoadOnTwoTopics load = new LoadOnTwoTopics("pulsar://127.0.0.1:" + port, topics)) {
            load.awaitMore(300, 30);
            long killed = System.nanoTime();
            sluiceProcess.kill();
            sluiceProcess.restart();
            long ready = System.nanoTime();
            load.awaitMore(1, 60);
            long resumed = System.nanoTime();
            load.awaitMore(300, 60);
            // The burst the new Sluice started with is spent by now; what follows is the steady rate.
            Counted before = Counted.now(adminPort, topics.throttled(), load.throttled);
            Thread.sleep(10_000);
            Counted after = Counted.now(adminPort, topics.throttled(), load.throttled);
            double seconds = seconds(after.at() - before.at());
            long forwarded = after.forwarded() - before.forwarded();
            figures.add(String.format(
                    "Sluice killed: the new one ready %.1f s after the kill, both producers acknowledged"
                            + " again %.1f s after that; throttled topic over %.1f s: %.1f msg/s forwarded, %.1f msg/s"
                            + " acknowledged (limit %d)",
                    seconds(ready - killed),
                    seconds(resumed - ready),
                    seconds,
                    forwarded / seconds,
                    (after.acknowledged() - before.acknowledged()) / seconds,
                    THROTTLED_RATE));
            check("Sluice killed", load.audit());
            // As over any window (docs/REFERENCE.md, "Limits"): the rate within 2 %, plus at most one burst (the
            // bucket's capacity, 1 s of the rate).
            assertTrue(
                    forwarded <= THROTTLED_RATE * seconds * 1.02 + THROTTLED_RATE,
                    "the limit from the limits file is enforced again after the restart: " + forwarded + " in "
                            + seconds + " s");
            assertTrue(
                    forwarded >= THROTTLED_RATE * seconds * 0.9,
                    "the throttled producer is back at its limit: " + forwarded + " in " + seconds + " s");
        }
    }

    /**
     * Sluice started while nothing listens at its upstream (both restarted, and Sluice came up
     * first): it is not ready and refuses a client's CONNECT with ServiceNotReady, which clients
     * retry; once the broker is back it turns ready, and the client that kept retrying gets its
     * producer.
     *
     * <p>The broker is this class's own, stopped and restarted with its data: a brand-new
     * standalone accepts connections a moment before it has created {@code public/default}, and
     * a lookup in that moment fails with TopicDoesNotExist, which no client retries.
     */
    @Test
    void aSluiceStartedWhileItsBrokerIsDownTurnsReadyWhenTheBrokerComesAndItsWaitingClientPublishes() throws Exception {
        String topic = topic("broker-late");
        broker.stop();
        try (RunningSluice early = RunningSluice.frontProxy(broker);
                PulsarClient client = PulsarClient.builder()
                        .serviceUrl(early.serviceUrl)
                        .operationTimeout(120, TimeUnit.SECONDS)
                        // Back-off doubles while nothing listens; capped so the producer follows the broker promptly.
                        .maxBackoffInterval(1, TimeUnit.SECONDS)
                        .build()) {
            assertEquals(503, readyz(early), "/readyz while the broker is down");
            try (RawPulsarClient raw = new RawPulsarClient(early.server.proxyPort())) {
                BaseCommand answer = raw.connect();
                assertEquals(BaseCommand.Type.ERROR, answer.getType(), answer.toString());
                assertEquals(ServerError.ServiceNotReady, answer.getError().getError(), answer.toString());
                assertTrue(raw.closedByPeer(), "the refused connection is closed");
            }
            CompletableFuture<Producer<byte[]>> pending =
                    producerBuilder(client, topic).createAsync();
            long refusedBefore = early.server.stats().upstreamConnectFailures();
            FloodsAndHostilePeersIT.waitFor(
                    () -> early.server.stats().upstreamConnectFailures() >= refusedBefore + 3, 30);
            assertFalse(pending.isDone(), "the client keeps retrying: " + pending);

            long starting = System.nanoTime();
            broker.restart();
            long started = System.nanoTime();
            FloodsAndHostilePeersIT.waitFor(() -> readyz(early) == 200, 15);
            long ready = System.nanoTime();
            Producer<byte[]> created = pending.get(60, TimeUnit.SECONDS);
            long producing = System.nanoTime();
            try (SequencedProducer producer = new SequencedProducer("broker-late", created, 100, 1_000)) {
                producer.awaitAcknowledged(0, 300, 30);
                figures.add(String.format(
                        "broker down when Sluice started (%d connects refused): broker up in"
                                + " %.1f s; after that /readyz 200 within %.1f s, waiting producer created within %.1f s",
                        early.server.stats().upstreamConnectFailures(),
                        seconds(started - starting),
                        seconds(ready - started),
                        seconds(producing - started)));
                check("broker down when Sluice started", audit(producer, topic));
            }
        } finally {
            if (!broker.isRunning()) {
                broker.restart();
            }
        }
    }

    @Test
    void aClientShutDownWhileSluiceHoldsItsSendsLosesNothingAcknowledged() throws Exception {
        String throttled = topic("client-killed");
        limit(throttled, "{\"publish\": {\"messagesPerSecond\": 50}}");
        SequencedProducer producer;
        PulsarClient client = client();
        try {
            producer = new SequencedProducer("client-killed", producer(client, throttled), 2_000, 0);
            producer.awaitAcknowledged(0, 60, 30);
            FloodsAndHostilePeersIT.waitFor(() -> heldMessages(throttled) > 100, 10);
            long heldAtShutdown = heldMessages(throttled);
            client.shutdown();
            // Sluice drops what it held for the dead connection; none of it was ever acknowledged.
            FloodsAndHostilePeersIT.waitFor(() -> heldMessages(throttled) == 0, 10);
            TopicAudit.Verdict verdict = audit(producer, throttled);
            figures.add("client shut down with " + heldAtShutdown + " sends held in Sluice: " + verdict);
            assertEquals(0, verdict.lost(), verdict.toString());
            assertEquals(0, verdict.reordered(), verdict.toString());
            assertTrue(
                    verdict.stored() <= verdict.acknowledged() + 5,
                    "held sends reached the broker after the client died: " + verdict);
        } finally {
            client.close();
            clearLimits();
        }
    }

    @Test
    void aDelayLimitFlippedEvery100MillisecondsLosesNothingAndCausesNoReconnects() throws Exception {
        flipUnderLoad(
                "flipping-delay",
                false,
                "{\"publish\": {\"messagesPerSecond\": 100}, \"onExceed\": \"delay\"}",
                "{\"publish\": {\"messagesPerSecond\": 1000}, \"onExceed\": \"delay\"}",
                null,
                "{\"publish\": {\"messagesPerSecond\": 20, \"burstSeconds\": 0.1}, \"onExceed\": \"delay\"}");
    }

    /**
     * With reject among the actions, a held send rejected after a flip was once read after its
     * buffer was released: its SendError never went out, and the client, getting a receipt for a
     * later batch first, reconnected and stalled.
     */
    @Test
    void aLimitFlippedBetweenDelayAndRejectEvery100MillisecondsLosesNothingAndCausesNoReconnects() throws Exception {
        flipUnderLoad(
                "flipping-reject",
                true,
                "{\"publish\": {\"messagesPerSecond\": 100}, \"onExceed\": \"delay\"}",
                "{\"publish\": {\"messagesPerSecond\": 100}, \"onExceed\": \"reject\"}",
                "{\"publish\": {\"messagesPerSecond\": 1000}, \"onExceed\": \"delay\"}",
                null,
                "{\"publish\": {\"messagesPerSecond\": 20, \"burstSeconds\": 0.1}, \"onExceed\": \"reject\"}");
    }

    /** Cycles the topic's limit through {@code limits} (null: none) every 100 ms for 6 s under load. */
    private static void flipUnderLoad(String name, boolean rejects, String... limits) throws Exception {
        String topic = topic(name);
        try (PulsarClient client = client()) {
            SequencedProducer producer = new SequencedProducer(name, producer(client, topic), 200, 500);
            producer.awaitAcknowledged(0, 100, 30);
            long connectionsBefore = sluice.server.stats().acceptedConnections();
            long flips = 0;
            long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(6);
            while (System.nanoTime() < end) {
                String limit = limits[(int) (flips++ % limits.length)];
                if (limit == null) {
                    clearLimits();
                } else {
                    limit(topic, limit);
                }
                Thread.sleep(100);
            }
            clearLimits();
            long reconnects = sluice.server.stats().acceptedConnections() - connectionsBefore;
            int atEnd = producer.acknowledged.size();
            producer.awaitAcknowledged(atEnd, 100, 30);
            producer.stop();
            TopicAudit.Verdict verdict = audit(producer, topic);
            figures.add("limit flipped " + flips + " times: " + verdict + ", rejected " + producer.failed.get()
                    + ", new connections " + reconnects);
            assertEquals(0, verdict.lost(), verdict.toString());
            assertEquals(0, verdict.reordered(), verdict.toString());
            assertTrue(reconnects <= 1, "the client reconnected " + reconnects + " times");
            assertEquals(rejects, producer.failed.get() > 0, "rejected sends: " + producer.failed.get());
            producer.close();
        } finally {
            clearLimits();
        }
    }

    private static void check(String scenario, TopicAudit.Verdict... verdicts) {
        for (TopicAudit.Verdict verdict : verdicts) {
            figures.add(scenario + ": " + verdict);
        }
        for (TopicAudit.Verdict verdict : verdicts) {
            assertEquals(0, verdict.lost(), verdict.toString());
            assertEquals(0, verdict.reordered(), verdict.toString());
        }
    }

    /** Stops {@code producer} (unless its client is gone) and reads its topic straight from the broker. */
    private static TopicAudit.Verdict audit(SequencedProducer producer, String topic) throws Exception {
        if (producer.producer.isConnected()) {
            producer.stop();
        }
        return TopicAudit.read(broker.serviceUrl(), topic).verdict(producer);
    }

    private static PulsarClient client() throws Exception {
        return client(sluice.serviceUrl);
    }

    private static PulsarClient client(String serviceUrl) throws Exception {
        return PulsarClient.builder()
                .serviceUrl(serviceUrl)
                .operationTimeout(30, TimeUnit.SECONDS)
                .build();
    }

    private static Producer<byte[]> producer(PulsarClient client, String topic) throws Exception {
        return producerBuilder(client, topic).create();
    }

    /** No send timeout and blocking when full: the client keeps every message until the broker answers. */
    private static ProducerBuilder<byte[]> producerBuilder(PulsarClient client, String topic) {
        return client.newProducer()
                .topic(topic)
                .sendTimeout(0, TimeUnit.SECONDS)
                .blockIfQueueFull(true);
    }

    private static String topic(String name) {
        return "persistent://public/default/faults-" + name + "-" + System.nanoTime();
    }

    /** A limits document (JSON) limiting only {@code topic}. */
    private static String limitsDocument(String topic, String limit) {
        return "{\"topics\": {\"" + topic + "\": " + limit + "}}";
    }

    private static void limit(String topic, String limit) throws Exception {
        sluice.server
                .limits()
                .replace(LimitsJson.parseDocument(
                        limitsDocument(topic, limit).getBytes(StandardCharsets.UTF_8),
                        sluice.server.limits().catalogue()));
    }

    private static void clearLimits() throws Exception {
        sluice.server.limits().replace(LimitsDocument.empty());
    }

    /** Status code of Sluice's readiness probe. */
    private static int readyz(RunningSluice sluice) {
        try {
            return HTTP.send(
                            HttpRequest.newBuilder(URI.create(sluice.adminUrl() + "/readyz"))
                                    .build(),
                            HttpResponse.BodyHandlers.discarding())
                    .statusCode();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** Messages a Sluice forwarded for {@code topic} since it started: its {@code sluice_publish_messages_total}. */
    private static long forwardedMessages(int adminPort, String topic) throws Exception {
        String sample = "sluice_publish_messages_total{protocol=\"pulsar\",topic=\"" + topic + "\"} ";
        String metrics = HTTP.send(
                        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + adminPort + "/metrics"))
                                .build(),
                        HttpResponse.BodyHandlers.ofString())
                .body();
        return metrics.lines()
                .filter(line -> line.startsWith(sample))
                .mapToLong(line -> (long)
                        Double.parseDouble(line.substring(sample.length()).split(" ")[0]))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no " + sample + "in /metrics"));
    }

    /** A topic's messages forwarded by a Sluice and acknowledged to its producer, at one moment ({@code at}, nanoTime). */
    private record Counted(long at, long forwarded, int acknowledged) {
        /** Counts now; the moment is the middle of the /metrics request, so that its latency does not skew a rate. */
        static Counted now(int adminPort, String topic, SequencedProducer producer) throws Exception {
            long sent = System.nanoTime();
            long forwarded = forwardedMessages(adminPort, topic);
            int acknowledged = producer.acknowledged.size();
            long received = System.nanoTime();
            return new Counted(sent + (received - sent) / 2, forwarded, acknowledged);
        }
    }

    private static double seconds(long nanos) {
        return nanos / 1e9;
    }

    private static long heldMessages(String topic) {
        return sluice.server.services().topics().meters().stream()
                .filter(meter -> meter.topic().equals(topic))
                .mapToLong(TopicMeter::heldMessages)
                .sum();
    }

    /** A throttled and a free topic of one scenario; only the throttled one gets a limit. */
    private record TwoTopics(String scenario, String throttled, String free) {
        static TwoTopics named(String scenario) {
            return new TwoTopics(scenario, topic(scenario + "-throttled"), topic(scenario + "-free"));
        }
    }

    /**
     * Load on {@link TwoTopics} from one client. The throttled producer keeps five seconds of its
     * limit outstanding with no pause, so Sluice always holds some of its sends, even while broker
     * receipts lag, and it presses on its limit all the time; it sends one message per SEND,
     * since Sluice admits a batch whole and large batches make a rate over a few seconds lumpy.
     * The free one sends one message a millisecond with up to 100 outstanding, batched.
     */
    private static final class LoadOnTwoTopics implements AutoCloseable {
        final TwoTopics topics;
        final PulsarClient client;
        final SequencedProducer throttled;
        final SequencedProducer free;

        LoadOnTwoTopics(String serviceUrl, TwoTopics topics) throws Exception {
            this.topics = topics;
            this.client = client(serviceUrl);
            this.throttled = new SequencedProducer(
                    topics.scenario() + "-throttled",
                    producerBuilder(client, topics.throttled())
                            .enableBatching(false)
                            .create(),
                    5 * THROTTLED_RATE,
                    0);
            this.free = new SequencedProducer(topics.scenario() + "-free", producer(client, topics.free()), 100, 1_000);
        }

        /** Waits until each producer has {@code count} more sends acknowledged than now. */
        void awaitMore(int count, int seconds) throws InterruptedException {
            int throttledNow = throttled.acknowledged.size();
            int freeNow = free.acknowledged.size();
            throttled.awaitAcknowledged(throttledNow, count, seconds);
            free.awaitAcknowledged(freeNow, count, seconds);
        }

        /** Stops both producers and reads both topics straight from the broker. */
        TopicAudit.Verdict[] audit() throws Exception {
            return new TopicAudit.Verdict[] {
                FaultsIT.audit(throttled, topics.throttled()), FaultsIT.audit(free, topics.free())
            };
        }

        @Override
        public void close() throws Exception {
            try (client) {
                throttled.close();
                free.close();
            }
        }
    }
}
