package io.sluice.server.it;

import io.sluice.limits.ScopeRef;
import io.sluice.pulsar.scopes.PulsarScopes;
import io.sluice.testkit.pulsar.PulsarBroker;
import org.apache.pulsar.client.api.Consumer;
import org.apache.pulsar.client.api.Message;
import org.apache.pulsar.client.api.Producer;
import org.apache.pulsar.client.api.PulsarClient;
import org.apache.pulsar.client.api.SubscriptionInitialPosition;
import org.apache.pulsar.client.api.SubscriptionType;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Dispatch quotas: Sluice meters FLOW permits so the broker sends consumers no more than the limit. */
class DispatchQuotaIT {

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

    private static void backlog(String topic, int messages, int size) throws Exception {
        try (Producer<byte[]> producer =
                client.newProducer().topic(topic).enableBatching(false).create()) {
            for (int i = 0; i < messages; i++) {
                producer.sendAsync(payload(i, size));
            }
            producer.flush();
        }
    }

    private static byte[] payload(int seq, int size) {
        byte[] bytes = new byte[size];
        byte[] id = Integer.toString(seq).getBytes();
        System.arraycopy(id, 0, bytes, 0, id.length);
        return bytes;
    }

    private static Consumer<byte[]> consumer(String topic) throws Exception {
        return client.newConsumer()
                .topic(topic)
                .subscriptionName("s")
                .subscriptionInitialPosition(SubscriptionInitialPosition.Earliest)
                .subscribe();
    }

    /** Receives until {@code count} messages arrived; returns their arrival times in nanos. */
    private static List<Long> receive(Consumer<byte[]> consumer, int count) throws Exception {
        List<Long> times = new ArrayList<>();
        Set<String> seen = new HashSet<>();
        for (int i = 0; i < count; i++) {
            Message<byte[]> message = consumer.receive(30, TimeUnit.SECONDS);
            assertTrue(message != null, "message " + i + " never arrived");
            assertTrue(seen.add(message.getMessageId().toString()), "no duplicate");
            times.add(System.nanoTime());
            consumer.acknowledgeAsync(message);
        }
        return times;
    }

    private static double rateBetween(List<Long> times, double fromSeconds, double toSeconds) {
        long start = times.get(0);
        long from = start + (long) (fromSeconds * 1e9);
        long to = start + (long) (toSeconds * 1e9);
        return times.stream().filter(t -> t >= from && t < to).count() / (toSeconds - fromSeconds);
    }

    @Test
    void aBackloggedConsumerReceivesAtTheDispatchRate() throws Exception {
        String topic = "persistent://public/default/dispatch-msgs-" + System.nanoTime();
        backlog(topic, 1000, 100);
        sluice.server
                .limits()
                .update(d -> d.withLimit(
                        new ScopeRef(PulsarScopes.TOPIC, topic),
                        PublishQuotaIT.limit("{\"dispatch\":{\"messagesPerSecond\":200,\"burstSeconds\":0.05}}")));
        try (Consumer<byte[]> consumer = consumer(topic)) {
            List<Long> times = receive(consumer, 1000);
            double rate = rateBetween(times, 0.25, 4.75);
            System.out.printf("dispatch: 200 msg/s limit -> %.1f msg/s%n", rate);
            assertEquals(200, rate, 4, "within 2 %");
        }
    }

    @Test
    void aBackloggedConsumerReceivesAtTheDispatchByteRate() throws Exception {
        String topic = "persistent://public/default/dispatch-bytes-" + System.nanoTime();
        backlog(topic, 1100, 1024);
        sluice.server
                .limits()
                .update(d -> d.withLimit(
                        new ScopeRef(PulsarScopes.TOPIC, topic),
                        PublishQuotaIT.limit("{\"dispatch\":{\"bytesPerSecond\":204800,\"burstSeconds\":0.05}}")));
        try (Consumer<byte[]> consumer = consumer(topic)) {
            List<Long> times = receive(consumer, 1100);
            double messages = rateBetween(times, 0.5, 5.0);
            var meter = sluice.server.services().topics().meter("pulsar", topic);
            double bytes = messages * meter.dispatchBytes() / meter.dispatchMessages();
            System.out.printf("dispatch: 204800 B/s limit -> %.0f B/s%n", bytes);
            assertEquals(204_800, bytes, 204_800 * 0.02, "within 2 %");
        }
    }

    @Test
    void anUnthrottledConsumerOnTheSameConnectionIsNotSlowedAndLimitsChangeLive() throws Exception {
        String slow = "persistent://public/default/dispatch-slow-" + System.nanoTime();
        String fast = "persistent://public/default/dispatch-fast-" + System.nanoTime();
        backlog(slow, 600, 100);
        backlog(fast, 2000, 100);
        sluice.server
                .limits()
                .update(d -> d.withLimit(
                        new ScopeRef(PulsarScopes.TOPIC, slow),
                        PublishQuotaIT.limit("{\"dispatch\":{\"messagesPerSecond\":50,\"burstSeconds\":0.1}}")));
        try (Consumer<byte[]> throttled = client.newConsumer()
                        .topic(slow)
                        .subscriptionName("s")
                        .subscriptionType(SubscriptionType.Shared)
                        .subscriptionInitialPosition(SubscriptionInitialPosition.Earliest)
                        .subscribe();
                Consumer<byte[]> free = consumer(fast)) {
            List<Long> slowTimes = receive(throttled, 100);
            long start = System.nanoTime();
            receive(free, 2000);
            double fastSeconds = (System.nanoTime() - start) / 1e9;
            System.out.printf("dispatch: unthrottled neighbour took %.2f s for 2000 messages%n", fastSeconds);
            assertTrue(fastSeconds < 10, "2000 messages at far more than the neighbour's 50 msg/s");
            assertEquals(50, rateBetween(slowTimes, 0.2, 1.9), 5);

            sluice.server
                    .limits()
                    .update(d -> d.withLimit(
                            new ScopeRef(PulsarScopes.TOPIC, slow),
                            PublishQuotaIT.limit("{\"dispatch\":{\"messagesPerSecond\":400,\"burstSeconds\":0.1}}")));
            long raised = System.nanoTime();
            receive(throttled, 400);
            double seconds = (System.nanoTime() - raised) / 1e9;
            System.out.printf("dispatch: limit raised 50 -> 400 msg/s, next 400 messages in %.2f s%n", seconds);
            assertTrue(seconds < 3, "the raised limit applies at once (8 s at the old rate): " + seconds);
        }
    }
}
