package io.sluice.server.it;

import io.sluice.quota.LimitsDocument;
import io.sluice.quota.LimitsJson;
import io.sluice.status.TopicMeter;
import io.sluice.testbroker.PulsarBroker;
import org.apache.pulsar.client.api.Producer;
import org.apache.pulsar.client.api.PulsarClient;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Faults under load with a checker ({@link TopicAudit}): producers send sequence-numbered
 * payloads through Sluice, and afterwards each topic is read straight from the broker and compared
 * with what the clients saw acknowledged. An acknowledged message must never be missing or out of
 * order; duplicates (a resend after a receipt lost with the connection) are counted.
 *
 * <p>Kills, restarts and freezes its own broker, so the shared one stays usable for other classes.
 */
class FaultsIT {

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
        String throttled = topic("kill-throttled");
        String free = topic("kill-free");
        limit(throttled, "{\"publish\": {\"messagesPerSecond\": 200}}");
        try (PulsarClient client = client()) {
            SequencedProducer slow = new SequencedProducer("kill-throttled", producer(client, throttled), 200, 0);
            SequencedProducer fast = new SequencedProducer("kill-free", producer(client, free), 100, 1_000);
            slow.awaitAcknowledged(0, 300, 30);
            fast.awaitAcknowledged(0, 300, 30);
            broker.kill();
            Thread.sleep(1_000);
            broker.restart();
            int slowAtRestart = slow.acknowledged.size();
            int fastAtRestart = fast.acknowledged.size();
            slow.awaitAcknowledged(slowAtRestart, 300, 90);
            fast.awaitAcknowledged(fastAtRestart, 300, 90);
            check("broker killed", audit(slow, throttled), audit(fast, free));
            slow.close();
            fast.close();
        } finally {
            clearLimits();
        }
    }

    @Test
    void brokerFrozenForTenSecondsUnderLoadLosesNoAcknowledgedMessage() throws Exception {
        String throttled = topic("freeze-throttled");
        String free = topic("freeze-free");
        limit(throttled, "{\"publish\": {\"messagesPerSecond\": 200}}");
        try (PulsarClient client = client()) {
            SequencedProducer slow = new SequencedProducer("freeze-throttled", producer(client, throttled), 200, 0);
            SequencedProducer fast = new SequencedProducer("freeze-free", producer(client, free), 100, 1_000);
            slow.awaitAcknowledged(0, 300, 30);
            fast.awaitAcknowledged(0, 300, 30);
            broker.freeze();
            try {
                Thread.sleep(10_000);
            } finally {
                broker.unfreeze();
            }
            int slowAtThaw = slow.acknowledged.size();
            int fastAtThaw = fast.acknowledged.size();
            slow.awaitAcknowledged(slowAtThaw, 300, 60);
            fast.awaitAcknowledged(fastAtThaw, 300, 60);
            check("broker frozen 10 s", audit(slow, throttled), audit(fast, free));
            slow.close();
            fast.close();
        } finally {
            clearLimits();
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
            assertTrue(verdict.stored() <= verdict.acknowledged() + 5, "held sends reached the broker after the client died: " + verdict);
        } finally {
            client.close();
            clearLimits();
        }
    }

    @Test
    void aDelayLimitFlippedEvery100MillisecondsLosesNothingAndCausesNoReconnects() throws Exception {
        flipUnderLoad("flipping-delay", false,
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
        flipUnderLoad("flipping-reject", true,
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

    private static TopicAudit.Verdict audit(SequencedProducer producer, String topic) throws Exception {
        if (producer.producer.isConnected()) {
            producer.stop();
        }
        return TopicAudit.read(broker.serviceUrl(), topic).verdict(producer);
    }

    private static PulsarClient client() throws Exception {
        return PulsarClient.builder().serviceUrl(sluice.serviceUrl).operationTimeout(30, TimeUnit.SECONDS).build();
    }

    /** No send timeout and blocking when full: the client keeps every message until the broker answers. */
    private static Producer<byte[]> producer(PulsarClient client, String topic) throws Exception {
        return client.newProducer().topic(topic).sendTimeout(0, TimeUnit.SECONDS).blockIfQueueFull(true).create();
    }

    private static String topic(String name) {
        return "persistent://public/default/faults-" + name + "-" + System.nanoTime();
    }

    private static void limit(String topic, String limit) throws Exception {
        sluice.server.limits().replace(LimitsJson.parseDocument(("{\"topics\": {\"" + topic + "\": " + limit + "}}")
                .getBytes(StandardCharsets.UTF_8)));
    }

    private static void clearLimits() throws Exception {
        sluice.server.limits().replace(LimitsDocument.empty());
    }

    private static long heldMessages(String topic) {
        return sluice.server.services().topics().meters().stream()
                .filter(meter -> meter.topic().equals(topic)).mapToLong(TopicMeter::heldMessages).sum();
    }
}
