package io.sluice.containers;

import org.apache.pulsar.client.api.Consumer;
import org.apache.pulsar.client.api.Message;
import org.apache.pulsar.client.api.MessageId;
import org.apache.pulsar.client.api.Producer;
import org.apache.pulsar.client.api.PulsarClient;
import org.apache.pulsar.client.api.PulsarClientException;
import org.apache.pulsar.client.api.Schema;
import org.apache.pulsar.client.api.SubscriptionInitialPosition;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The integration contract with everything but the client in containers: a Pulsar client on the
 * host talks to Sluice's image, which forwards to a Pulsar broker in another container. The host
 * cannot reach the broker at all, so whatever works here went through Sluice.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class PulsarThroughSluiceContainerIT {

    private SluiceContainer sluice;
    private PulsarClient client;

    @BeforeAll
    void startSluice() throws PulsarClientException {
        PulsarBrokerContainer broker = SharedContainers.pulsarBroker();
        sluice = new SluiceContainer(SharedContainers.network(), broker.serviceUrlOnNetwork()).untilReady();
        sluice.start();
        client = PulsarClient.builder()
                .serviceUrl(sluice.serviceUrl())
                .operationTimeout(30, TimeUnit.SECONDS)
                .build();
    }

    @AfterAll
    void stopSluice() throws PulsarClientException {
        if (client != null) {
            client.close();
        }
        if (sluice != null) {
            sluice.stop();
        }
    }

    @Test
    void messagesProducedThroughSluiceAreConsumedThroughSluiceInOrder() throws Exception {
        String topic = topic("roundtrip");
        int count = 100;
        try (Consumer<String> consumer = client.newConsumer(Schema.STRING)
                        .topic(topic)
                        .subscriptionName("audit")
                        .subscriptionInitialPosition(SubscriptionInitialPosition.Earliest)
                        .subscribe();
                Producer<String> producer =
                        client.newProducer(Schema.STRING).topic(topic).create()) {
            for (int i = 0; i < count; i++) {
                producer.send("m-" + i);
            }
            for (int i = 0; i < count; i++) {
                Message<String> message = consumer.receive(30, TimeUnit.SECONDS);
                assertNotNull(message, "message " + i + " arrived");
                assertEquals("m-" + i, message.getValue());
                consumer.acknowledge(message);
            }
        }
        SluiceAdmin admin = sluice.admin();
        assertEquals(count, admin.metric("sluice_publish_messages_total", topic), "Sluice counted every send");
        assertEquals(count, admin.metric("sluice_dispatch_messages_total", topic), "and every delivery");
    }

    @Test
    void aRejectLimitSetOverRestFailsTheOverQuotaSendsAndGoesAwayWhenDeleted() throws Exception {
        String topic = topic("reject");
        HttpResponse<String> put = sluice.admin()
                .put(
                        limitPath(topic),
                        "{\"publish\":{\"messagesPerSecond\":5,\"burstSeconds\":1},\"onExceed\":\"reject\"}");
        assertEquals(200, put.statusCode(), put.body());
        try (Producer<byte[]> producer =
                client.newProducer().topic(topic).enableBatching(false).create()) {
            int total = 50;
            List<CompletableFuture<MessageId>> sends = new ArrayList<>();
            long start = System.nanoTime();
            for (int i = 0; i < total; i++) {
                sends.add(producer.sendAsync(new byte[16]));
            }
            List<Throwable> rejections = new ArrayList<>();
            for (CompletableFuture<MessageId> send : sends) {
                Throwable failure = send.handle((id, e) -> e instanceof CompletionException ? e.getCause() : e)
                        .get(30, TimeUnit.SECONDS);
                if (failure != null) {
                    rejections.add(failure);
                }
            }
            double seconds = (System.nanoTime() - start) / 1e9;
            int admitted = total - rejections.size();
            System.out.printf(
                    "container reject: %d admitted, %d rejected in %.2f s%n", admitted, rejections.size(), seconds);
            assertTrue(admitted >= 1 && admitted <= 5 + 5 * seconds + 1, "about the burst was admitted: " + admitted);
            assertTrue(rejections.size() > 0, "sends over 5 msg/s were rejected");
            for (Throwable rejection : rejections) {
                assertInstanceOf(PulsarClientException.NotAllowedException.class, rejection);
                assertTrue(rejection.getMessage().contains("throttled: topic " + topic), rejection.getMessage());
            }

            assertEquals(204, sluice.admin().delete(limitPath(topic)).statusCode());
            for (int i = 0; i < total; i++) {
                producer.send(new byte[16]);
            }
        }
    }

    @Test
    void aDelayLimitSetOverRestHoldsSendsToItsRate() throws Exception {
        String topic = topic("delay");
        double rate = 20;
        double burstSeconds = 0.5;
        HttpResponse<String> put = sluice.admin()
                .put(
                        limitPath(topic),
                        "{\"publish\":{\"messagesPerSecond\":" + rate + ",\"burstSeconds\":" + burstSeconds + "}}");
        assertEquals(200, put.statusCode(), put.body());
        int total = 60;
        try (Producer<byte[]> producer =
                client.newProducer().topic(topic).enableBatching(false).create()) {
            List<CompletableFuture<MessageId>> sends = new ArrayList<>();
            long start = System.nanoTime();
            for (int i = 0; i < total; i++) {
                sends.add(producer.sendAsync(new byte[16]));
            }
            CompletableFuture.allOf(sends.toArray(CompletableFuture[]::new)).get(60, TimeUnit.SECONDS);
            double seconds = (System.nanoTime() - start) / 1e9;
            // The full bucket admits its burst at once, and one send more while its balance is positive.
            double floor = (total - rate * burstSeconds - 1) / rate;
            System.out.printf(
                    "container delay: %d sends at %.0f msg/s took %.2f s (at least %.2f s)%n",
                    total, rate, seconds, floor);
            assertTrue(seconds >= 0.95 * floor, "sends were held to the rate: " + seconds + " s");
        }
        assertTrue(sluice.admin().metric("sluice_throttle_events_total", topic) > 0, "Sluice reports the throttling");
    }

    static String topic(String name) {
        return "persistent://public/default/" + name + "-" + System.nanoTime();
    }

    /** The REST path of a topic's limit, {@code /api/v1/limits/topics/persistent/tenant/namespace/topic}. */
    static String limitPath(String topic) {
        return "/api/v1/limits/topics/" + topic.replace("://", "/");
    }
}
