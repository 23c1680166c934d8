package io.sluice.server.it;

import io.sluice.limits.ScopeRef;
import io.sluice.pulsar.scopes.PulsarScopes;
import io.sluice.testkit.pulsar.PulsarBroker;
import org.apache.pulsar.client.admin.PulsarAdmin;
import org.apache.pulsar.client.api.Producer;
import org.apache.pulsar.client.api.PulsarClient;
import org.apache.pulsar.common.policies.data.PublishRate;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The reason Sluice exists. One client connection carries topic A, limited to 100 msg/s and
 * flooded, and topic B, unlimited and paced at 200 msg/s. Through Sluice, B must not notice A.
 * The same scenario against the broker's own publish-rate policy is measured for comparison.
 */
class NoisyNeighbourIT {

    private static final PulsarBroker broker = PulsarBroker.shared();
    private static final int B_RATE = 200;
    private static final int SECONDS = 6;

    /** What topic B experienced: sends completed out of sent, and latency percentiles in ms. */
    record Outcome(int sent, int completed, double p50, double p99) {
        @Override
        public String toString() {
            return String.format("B completed %d/%d, p50 %.2f ms, p99 %.2f ms", completed, sent, p50, p99);
        }
    }

    @Test
    void anUnthrottledTopicKeepsItsLatencyWhileItsNeighbourIsThrottled() throws Exception {
        try (RunningSluice sluice = RunningSluice.frontProxy(broker)) {
            Outcome baseline = run(sluice.serviceUrl, false, topicA -> {});
            Outcome throttled = run(
                    sluice.serviceUrl,
                    true,
                    topicA -> sluice.server
                            .limits()
                            .update(d -> d.withLimit(
                                    new ScopeRef(PulsarScopes.TOPIC, topicA),
                                    PublishQuotaIT.limit("{\"publish\":{\"messagesPerSecond\":100}}"))));
            Outcome brokerOwn = run(broker.serviceUrl(), true, topicA -> {
                try (PulsarAdmin admin =
                        PulsarAdmin.builder().serviceHttpUrl(broker.webUrl()).build()) {
                    admin.topics().createNonPartitionedTopic(topicA);
                    admin.topicPolicies().setPublishRate(topicA, new PublishRate(100, -1));
                    Thread.sleep(2_000);
                }
            });
            System.out.println("noisy neighbour: baseline (no A)        " + baseline);
            System.out.println("noisy neighbour: Sluice delay, A flooded " + throttled);
            System.out.println("noisy neighbour: broker policy, A flooded " + brokerOwn);
            assertEquals(throttled.sent(), throttled.completed(), "every send of B completes through Sluice");
            // Below 10 ms a p99 on this 2-core machine is scheduler and GC noise, not the proxy.
            assertTrue(
                    throttled.p99() <= 2 * Math.max(baseline.p99(), 10.0),
                    "B's p99 stays within 2x its baseline: " + throttled + " vs " + baseline);
        }
    }

    interface Setup {
        void limit(String topicA) throws Exception;
    }

    private static Outcome run(String serviceUrl, boolean floodA, Setup setup) throws Exception {
        String topicA = "persistent://public/default/noisy-a-" + System.nanoTime();
        String topicB = "persistent://public/default/quiet-b-" + System.nanoTime();
        setup.limit(topicA);
        try (PulsarClient client = PulsarClient.builder()
                .serviceUrl(serviceUrl)
                .operationTimeout(30, TimeUnit.SECONDS)
                .build()) {
            Producer<byte[]> b = client.newProducer()
                    .topic(topicB)
                    .enableBatching(false)
                    .sendTimeout(5, TimeUnit.SECONDS)
                    .create();
            b.send(new byte[100]);
            Producer<byte[]> a = client.newProducer()
                    .topic(topicA)
                    .enableBatching(false)
                    .sendTimeout(0, TimeUnit.SECONDS)
                    .maxPendingMessages(5000)
                    .blockIfQueueFull(true)
                    .create();
            if (floodA) {
                for (int i = 0; i < 5000; i++) {
                    a.sendAsync(new byte[100]);
                }
            }
            // Measure B in the steady state: A's backlog has left the client and sits in the throttle.
            Thread.sleep(2_000);
            ConcurrentLinkedQueue<Double> latencies = new ConcurrentLinkedQueue<>();
            List<CompletableFuture<?>> sends = new ArrayList<>();
            long start = System.nanoTime();
            int total = B_RATE * SECONDS;
            for (int i = 0; i < total; i++) {
                long due = start + i * (1_000_000_000L / B_RATE);
                long wait = due - System.nanoTime();
                if (wait > 0) {
                    TimeUnit.NANOSECONDS.sleep(wait);
                }
                long sentAt = System.nanoTime();
                sends.add(b.sendAsync(new byte[100]).thenRun(() -> latencies.add((System.nanoTime() - sentAt) / 1e6)));
            }
            for (CompletableFuture<?> send : sends) {
                try {
                    send.get(10, TimeUnit.SECONDS);
                } catch (Exception timedOut) {
                    // counted as not completed
                }
            }
            List<Double> sorted = new ArrayList<>(latencies);
            Collections.sort(sorted);
            a.closeAsync();
            return new Outcome(total, sorted.size(), percentile(sorted, 0.50), percentile(sorted, 0.99));
        }
    }

    private static double percentile(List<Double> sorted, double q) {
        if (sorted.isEmpty()) {
            return Double.NaN;
        }
        return sorted.get(Math.min(sorted.size() - 1, (int) Math.ceil(q * sorted.size()) - 1));
    }
}
