package io.sluice.server.it;

import io.sluice.limits.Limit;
import io.sluice.limits.LimitsJson;
import io.sluice.limits.ScopeRef;
import io.sluice.pulsar.scopes.PulsarScopes;
import io.sluice.status.TopicMeter;
import io.sluice.testkit.pulsar.PulsarBroker;
import org.apache.pulsar.client.admin.PulsarAdmin;
import org.apache.pulsar.client.api.Producer;
import org.apache.pulsar.client.api.PulsarClient;
import org.apache.pulsar.client.api.PulsarClientException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Publish quotas with the real client and broker: accuracy, nesting, reject, connection limits, live changes. */
class PublishQuotaIT {

    private static final PulsarBroker broker = PulsarBroker.shared();
    private static RunningSluice sluice;
    private static PulsarClient client;

    @BeforeAll
    static void start() throws Exception {
        sluice = RunningSluice.frontProxy(broker);
        client = PulsarClient.builder()
                .serviceUrl(sluice.serviceUrl)
                .operationTimeout(30, TimeUnit.SECONDS)
                .build();
    }

    @AfterAll
    static void stop() throws Exception {
        client.close();
        sluice.close();
    }

    static Limit limit(String json) {
        return LimitsJson.parseLimit(json.getBytes(StandardCharsets.UTF_8));
    }

    static String topic(String name) {
        return "persistent://public/default/" + name + "-" + System.nanoTime();
    }

    private Producer<byte[]> producer(String topic) throws PulsarClientException {
        return client.newProducer()
                .topic(topic)
                .enableBatching(false)
                .blockIfQueueFull(true)
                .sendTimeout(0, TimeUnit.SECONDS)
                .create();
    }

    /**
     * Messages per second Sluice forwarded to the broker over ten seconds, after the initial burst.
     * Counted where Sluice admits them: acknowledgement times would add the broker's jitter.
     */
    private static double steadyRate(String topic, Flood flood) throws InterruptedException {
        TopicMeter meter = sluice.server.services().topics().meter("pulsar", topic);
        Thread.sleep(2_000);
        long[] start = countAt(meter);
        Thread.sleep(10_000);
        long[] end = countAt(meter);
        double seconds = (end[1] - start[1]) / 1e9;
        double rate = (end[0] - start[0]) / seconds;
        double acknowledged = flood.acknowledgedBetween(start[1], end[1]) / seconds;
        assertEquals(rate, acknowledged, rate * 0.1, "the broker acknowledged what Sluice admitted");
        return rate;
    }

    /**
     * The meter's count and the time it was read, taken again while this thread was descheduled between the two reads
     * (on a busy machine that can last long enough to skew a 10 s window by percents).
     */
    private static long[] countAt(TopicMeter meter) {
        while (true) {
            long before = System.nanoTime();
            long count = meter.publishMessages();
            long after = System.nanoTime();
            if (after - before < TimeUnit.MILLISECONDS.toNanos(5)) {
                return new long[] {count, before + (after - before) / 2};
            }
        }
    }

    @Test
    void aSaturatingProducerGetsTheMessageRateWithinTwoPercent() throws Exception {
        String topic = topic("accuracy-msgs");
        sluice.server
                .limits()
                .update(d -> d.withLimit(
                        new ScopeRef(PulsarScopes.TOPIC, topic), limit("{\"publish\":{\"messagesPerSecond\":500}}")));
        try (Producer<byte[]> producer = producer(topic);
                Flood flood = new Flood(producer, 100, 1000)) {
            double rate = steadyRate(topic, flood);
            System.out.printf("accuracy: 500 msg/s limit -> %.1f msg/s%n", rate);
            assertEquals(500, rate, 10, "within 2 %");
        }
    }

    @Test
    void aSaturatingProducerGetsTheByteRateWithinTwoPercent() throws Exception {
        String topic = topic("accuracy-bytes");
        sluice.server
                .limits()
                .update(d -> d.withLimit(
                        new ScopeRef(PulsarScopes.TOPIC, topic), limit("{\"publish\":{\"bytesPerSecond\":204800}}")));
        try (Producer<byte[]> producer = producer(topic);
                Flood flood = new Flood(producer, 1024, 1000)) {
            double messagesPerSecond = steadyRate(topic, flood);
            // Each SEND carries the 1 KiB payload plus checksum and metadata: count what Sluice counts.
            double bytesPerSecond = messagesPerSecond
                    * sluice.server.services().topics().meter("pulsar", topic).publishBytes()
                    / sluice.server.services().topics().meter("pulsar", topic).publishMessages();
            System.out.printf("accuracy: 204800 B/s limit -> %.0f B/s%n", bytesPerSecond);
            assertEquals(204_800, bytesPerSecond, 204_800 * 0.02, "within 2 %");
        }
    }

    @Test
    void twoTopicsShareTheirNamespaceLimit() throws Exception {
        String namespace = "public/shared-" + System.nanoTime();
        try (PulsarAdmin admin =
                PulsarAdmin.builder().serviceHttpUrl(broker.webUrl()).build()) {
            admin.namespaces().createNamespace(namespace);
        }
        String a = "persistent://" + namespace + "/a";
        String b = "persistent://" + namespace + "/b";
        sluice.server
                .limits()
                .update(d -> d.withLimit(
                        new ScopeRef(PulsarScopes.NAMESPACE, namespace),
                        limit("{\"publish\":{\"messagesPerSecond\":600}}")));
        try (Producer<byte[]> pa = producer(a);
                Producer<byte[]> pb = producer(b);
                Flood fa = new Flood(pa, 100, 500);
                Flood fb = new Flood(pb, 100, 500)) {
            Thread.sleep(2_000);
            long from = System.nanoTime();
            Thread.sleep(8_000);
            long to = System.nanoTime();
            double seconds = (to - from) / 1e9;
            double rateA = fa.acknowledgedBetween(from, to) / seconds;
            double rateB = fb.acknowledgedBetween(from, to) / seconds;
            System.out.printf(
                    "hierarchy: namespace 600 msg/s -> a %.1f + b %.1f = %.1f msg/s%n", rateA, rateB, rateA + rateB);
            assertEquals(600, rateA + rateB, 12, "the two topics together get the namespace rate");
            assertTrue(rateA > 150 && rateB > 150, "both topics get a share");
        }
    }

    @Test
    void overQuotaSendsFailFastWithNotAllowedWhileAdmittedOnesSucceedWithoutReconnecting() throws Exception {
        String topic = topic("reject");
        // A Sluice of its own, so that no other client's connections blur the reconnect count.
        try (RunningSluice own = RunningSluice.frontProxy(broker);
                PulsarClient ownClient =
                        PulsarClient.builder().serviceUrl(own.serviceUrl).build()) {
            own.server
                    .limits()
                    .update(
                            d -> d.withLimit(
                                    new ScopeRef(PulsarScopes.TOPIC, topic),
                                    limit(
                                            "{\"publish\":{\"messagesPerSecond\":20,\"burstSeconds\":1},\"onExceed\":\"reject\"}")));
            Producer<byte[]> producer =
                    ownClient.newProducer().topic(topic).enableBatching(false).create();
            long connectionsBefore = own.server.stats().acceptedConnections();
            List<CompletableFuture<?>> sends = new ArrayList<>();
            long start = System.nanoTime();
            for (int i = 0; i < 200; i++) {
                sends.add(producer.sendAsync(new byte[10]));
            }
            int ok = 0;
            int rejected = 0;
            for (CompletableFuture<?> send : sends) {
                try {
                    send.get(10, TimeUnit.SECONDS);
                    ok++;
                } catch (ExecutionException e) {
                    assertInstanceOf(PulsarClientException.NotAllowedException.class, e.getCause());
                    assertTrue(
                            e.getCause().getMessage().contains("throttled: topic " + topic),
                            e.getCause().getMessage());
                    rejected++;
                }
            }
            long elapsedMillis = (System.nanoTime() - start) / 1_000_000;
            System.out.printf("reject: %d admitted, %d rejected in %d ms%n", ok, rejected, elapsedMillis);
            assertTrue(ok >= 20 && ok < 60, "about the burst was admitted: " + ok);
            assertEquals(200, ok + rejected);
            assertTrue(elapsedMillis < 5_000, "rejections are immediate, not timeouts");
            Thread.sleep(1_100);
            producer.send(new byte[10]);
            assertEquals(connectionsBefore, own.server.stats().acceptedConnections(), "the producer never reconnected");
        }
    }

    @Test
    void aHugeBurstNeverMakesSluiceHoldMoreThanTheConnectionLimitPlusOneFrame() throws Exception {
        String topic = topic("held-bound");
        int maxHeld = 1 << 20;
        sluice.server
                .limits()
                .update(d -> d.withLimit(
                                new ScopeRef(PulsarScopes.TOPIC, topic),
                                limit("{\"publish\":{\"messagesPerSecond\":50}}"))
                        .withConnection(new io.sluice.limits.ConnectionLimits(100_000, maxHeld)));
        int payload = 10 * 1024;
        PulsarClient own = PulsarClient.builder().serviceUrl(sluice.serviceUrl).build();
        try {
            Producer<byte[]> producer = own.newProducer()
                    .topic(topic)
                    .enableBatching(false)
                    .blockIfQueueFull(true)
                    .sendTimeout(0, TimeUnit.SECONDS)
                    .create();
            long maxSeen = 0;
            try (Flood flood = new Flood(producer, payload, 3000)) {
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(4);
                while (System.nanoTime() < deadline) {
                    maxSeen = Math.max(
                            maxSeen,
                            sluice.server
                                    .services()
                                    .topics()
                                    .meter("pulsar", topic)
                                    .heldBytes());
                    Thread.sleep(1);
                }
            }
            System.out.printf("connection limit: maxHeldBytes %d, most held %d%n", maxHeld, maxSeen);
            assertTrue(maxSeen > maxHeld / 2, "the flood did fill the proxy: " + maxSeen);
            assertTrue(maxSeen <= maxHeld + payload + 512, "held " + maxSeen + " > limit + one frame");
        } finally {
            // The paused connection would take a minute to drain the client's backlog: drop it.
            own.shutdown();
            sluice.server.limits().update(d -> d.withConnection(io.sluice.limits.ConnectionLimits.DEFAULT));
        }
    }

    @Test
    void aLimitChangedWhileTrafficFlowsTakesEffectWithinOneSecond() throws Exception {
        String topic = topic("live-change");
        sluice.server
                .limits()
                .update(d -> d.withLimit(
                        new ScopeRef(PulsarScopes.TOPIC, topic), limit("{\"publish\":{\"messagesPerSecond\":1000}}")));
        try (Producer<byte[]> producer = producer(topic);
                Flood flood = new Flood(producer, 100, 1000)) {
            Thread.sleep(2_000);
            sluice.server
                    .limits()
                    .update(d -> d.withLimit(
                            new ScopeRef(PulsarScopes.TOPIC, topic),
                            limit("{\"publish\":{\"messagesPerSecond\":100,\"burstSeconds\":0.1}}")));
            long changed = System.nanoTime();
            Thread.sleep(4_000);
            long from = changed + TimeUnit.SECONDS.toNanos(1);
            long to = System.nanoTime();
            double rate = flood.acknowledgedBetween(from, to) / ((to - from) / 1e9);
            System.out.printf("live change: 1000 -> 100 msg/s, rate from 1 s after the change %.1f msg/s%n", rate);
            assertEquals(100, rate, 10);
        }
    }
}
