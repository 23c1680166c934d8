package io.sluice.bench.sidebyside;

import org.apache.pulsar.client.admin.PulsarAdmin;
import org.apache.pulsar.client.api.Producer;
import org.apache.pulsar.client.api.PulsarClient;
import org.apache.pulsar.common.policies.data.PublishRate;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Scenario (d), the noisy neighbour: one client connection carries topic A, limited to 100 msg/s
 * and flooded with 5,000 sends kept in flight, and topic B, unlimited and paced at 200 msg/s.
 * What B experiences is measured with Sluice delaying or rejecting A, and with the broker's own
 * publish-rate policy on A.
 */
final class IsolationScenario {

    private static final int A_LIMIT = 100;
    private static final int A_IN_FLIGHT = 5000;
    private static final int B_RATE = 200;
    private static final int PAYLOAD_BYTES = 100;

    /** How topic A is limited before the run. */
    private interface Limiter {
        void limit(String topicA) throws Exception;
    }

    private record Mode(String name, String serviceUrl, boolean floodA, Limiter limiter) {}

    /** What B experienced, and what A achieved meanwhile. */
    private record Outcome(int sent, int completed, double p50, double p99, double aRate) {}

    private IsolationScenario() {}

    static void run(
            SluiceContender sluice, String brokerUrl, String brokerWebUrl, BenchSettings settings, Report report)
            throws Exception {
        String sluiceUrl = sluice.contender().serviceUrl();
        String limit = "{\"publish\":{\"messagesPerSecond\":" + A_LIMIT + "}";
        List<Mode> modes = List.of(
                new Mode("direct, A idle", brokerUrl, false, topicA -> {}),
                new Mode("Sluice, A idle", sluiceUrl, false, topicA -> {}),
                new Mode(
                        "Sluice delay, A flooded",
                        sluiceUrl,
                        true,
                        topicA -> sluice.putTopicLimit(topicA, limit + ",\"onExceed\":\"delay\"}")),
                new Mode(
                        "Sluice reject, A flooded",
                        sluiceUrl,
                        true,
                        topicA -> sluice.putTopicLimit(topicA, limit + ",\"onExceed\":\"reject\"}")),
                new Mode("broker publish-rate policy, A flooded", brokerUrl, true, topicA -> {
                    try (PulsarAdmin admin =
                            PulsarAdmin.builder().serviceHttpUrl(brokerWebUrl).build()) {
                        admin.topics().createNonPartitionedTopic(topicA);
                        admin.topicPolicies().setPublishRate(topicA, new PublishRate(A_LIMIT, -1));
                        while (admin.topicPolicies().getPublishRate(topicA) == null) {
                            Sleep.millis(200);
                        }
                        Sleep.millis(1000);
                    }
                }));
        MarkdownTable table =
                new MarkdownTable("mode", "B completed / sent", "B p50 ms", "B p99 ms", "A acknowledged msg/s");
        for (Mode mode : modes) {
            Outcome o = measure(mode, settings.isolationSeconds());
            table.row(
                    mode.name(),
                    o.completed() + " / " + o.sent(),
                    MarkdownTable.num(o.p50(), 2),
                    MarkdownTable.num(o.p99(), 2),
                    mode.floodA() ? MarkdownTable.num(o.aRate(), 1) : "-");
            System.out.printf(
                    "  isolation %s: B %d/%d, p99 %.2f ms, A %.1f msg/s%n",
                    mode.name(), o.completed(), o.sent(), o.p99(), o.aRate());
        }
        report.heading("Isolation: noisy neighbour on one connection (A limited to " + A_LIMIT + " msg/s, "
                + A_IN_FLIGHT + " in flight; B paced at " + B_RATE + " msg/s for "
                + MarkdownTable.num(settings.isolationSeconds(), 0) + " s)");
        report.table(table);
    }

    private static Outcome measure(Mode mode, double seconds) throws Exception {
        String topicA = "persistent://public/default/noisy-a-" + System.nanoTime();
        String topicB = "persistent://public/default/quiet-b-" + System.nanoTime();
        mode.limiter().limit(topicA);
        PulsarClient client = PulsarClients.connect(mode.serviceUrl());
        AtomicBoolean stop = new AtomicBoolean();
        Thread flooder = null;
        try {
            Producer<byte[]> b = client.newProducer()
                    .topic(topicB)
                    .enableBatching(false)
                    .sendTimeout(5, TimeUnit.SECONDS)
                    .create();
            b.send(new byte[PAYLOAD_BYTES]);
            Producer<byte[]> a = client.newProducer()
                    .topic(topicA)
                    .enableBatching(false)
                    .sendTimeout(0, TimeUnit.SECONDS)
                    .maxPendingMessages(A_IN_FLIGHT)
                    .blockIfQueueFull(true)
                    .create();
            AtomicLong aAcknowledged = new AtomicLong();
            if (mode.floodA()) {
                flooder = new Thread(() -> flood(a, stop, aAcknowledged), "flood-" + topicA);
                flooder.setDaemon(true);
                flooder.start();
            }
            // Measure B in the steady state: A's backlog has left the client and sits in the throttle.
            Sleep.millis(2000);
            long aBefore = aAcknowledged.get();
            LatencySamples latencies = new LatencySamples();
            long start = System.nanoTime();
            PacedSends sends = PacedSends.send(List.of(b), B_RATE, seconds, PAYLOAD_BYTES, latencies);
            double aRate = (aAcknowledged.get() - aBefore) / ((System.nanoTime() - start) / 1e9);
            // B's send timeout (5 s) ends every send well within this.
            long completed = sends.awaitCompleted(Duration.ofSeconds(10));
            return new Outcome(
                    sends.sent(),
                    (int) completed,
                    latencies.percentileMillis(0.50),
                    latencies.percentileMillis(0.99),
                    aRate);
        } finally {
            stop.set(true);
            if (flooder != null) {
                flooder.interrupt();
            }
            try {
                // A connection the broker has paused may not answer a close; do not wait for it.
                client.closeAsync().get(5, TimeUnit.SECONDS);
            } catch (Exception ignored) {
                // The broker drops the connection's producers when the client goes away.
            }
        }
    }

    /** Keeps {@link #A_IN_FLIGHT} sends of A outstanding until told to stop, as a flooding client does. */
    private static void flood(Producer<byte[]> a, AtomicBoolean stop, AtomicLong acknowledged) {
        Semaphore window = new Semaphore(A_IN_FLIGHT);
        byte[] payload = new byte[PAYLOAD_BYTES];
        try {
            while (!stop.get()) {
                if (window.tryAcquire(100, TimeUnit.MILLISECONDS)) {
                    a.sendAsync(payload).whenComplete((id, error) -> {
                        if (error == null) {
                            acknowledged.incrementAndGet();
                        }
                        window.release();
                    });
                }
            }
        } catch (InterruptedException e) {
            // Told to stop.
        }
    }
}
