package io.sluice.server.it;

import io.sluice.testkit.pulsar.PulsarBroker;
import org.apache.pulsar.client.admin.PulsarAdmin;
import org.apache.pulsar.client.api.Consumer;
import org.apache.pulsar.client.api.Message;
import org.apache.pulsar.client.api.MessageId;
import org.apache.pulsar.client.api.Producer;
import org.apache.pulsar.client.api.PulsarClient;
import org.apache.pulsar.client.api.PulsarClientException;
import org.apache.pulsar.client.api.Schema;
import org.apache.pulsar.client.api.SubscriptionInitialPosition;
import org.apache.pulsar.client.api.SubscriptionType;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What any client must see through Sluice, whichever the deployment: exactly what it would see
 * connected to the broker directly. Subclasses start Sluice in one deployment mode.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class TransparentProxyContract {

    static final PulsarBroker broker = PulsarBroker.shared();

    private final List<AutoCloseable> closeables = new ArrayList<>();
    private RunningSluice sluice;

    /** Starts Sluice in the deployment under test, in front of {@link #broker}. */
    abstract RunningSluice start();

    /** A short name of the deployment, for topic names. */
    abstract String mode();

    @BeforeAll
    void startSluice() {
        sluice = start();
    }

    @AfterAll
    void stopSluice() {
        sluice.close();
    }

    /** The service URL clients use: Sluice's. */
    String serviceUrl() {
        return sluice.serviceUrl;
    }

    /** Client connections Sluice has accepted so far: proof that traffic did not bypass it. */
    long acceptedConnections() {
        return sluice.server.stats().acceptedConnections();
    }

    PulsarClient client() throws PulsarClientException {
        PulsarClient client = PulsarClient.builder()
                .serviceUrl(serviceUrl())
                .operationTimeout(15, TimeUnit.SECONDS)
                .build();
        closeables.add(client);
        return client;
    }

    String topic(String name) {
        return "persistent://public/default/" + name + "-" + mode() + "-" + System.nanoTime();
    }

    @AfterEach
    void closeClients() throws Exception {
        for (AutoCloseable c : closeables) {
            c.close();
        }
        closeables.clear();
    }

    @ParameterizedTest(name = "batching={0}")
    @ValueSource(booleans = {true, false})
    void tenThousandMessagesArriveOnceEachAndInOrder(boolean batching) throws Exception {
        String topic = topic("ten-thousand-" + batching);
        long accepted = acceptedConnections();
        PulsarClient client = client();
        Consumer<String> consumer = client.newConsumer(Schema.STRING)
                .topic(topic)
                .subscriptionName("s")
                .subscribe();
        Producer<String> producer = client.newProducer(Schema.STRING)
                .topic(topic)
                .enableBatching(batching)
                .blockIfQueueFull(true)
                .create();
        List<CompletableFuture<MessageId>> sends = new ArrayList<>();
        for (int i = 0; i < 10_000; i++) {
            sends.add(producer.sendAsync("m-" + i));
        }
        CompletableFuture.allOf(sends.toArray(CompletableFuture[]::new)).get(60, TimeUnit.SECONDS);

        for (int i = 0; i < 10_000; i++) {
            Message<String> message = consumer.receive(20, TimeUnit.SECONDS);
            assertNotNull(message, "message " + i + " never arrived");
            assertEquals("m-" + i, message.getValue());
            consumer.acknowledge(message);
        }
        assertNull(consumer.receive(200, TimeUnit.MILLISECONDS), "nothing more than was sent");
        assertTrue(acceptedConnections() > accepted, "the client went through Sluice");
    }

    @Test
    void aPartitionedTopicIsServedPartitionByPartition() throws Exception {
        String topic = topic("partitioned");
        try (PulsarAdmin admin =
                PulsarAdmin.builder().serviceHttpUrl(broker.webUrl()).build()) {
            admin.topics().createPartitionedTopic(topic, 4);
        }
        PulsarClient client = client();
        Consumer<String> consumer = client.newConsumer(Schema.STRING)
                .topic(topic)
                .subscriptionName("s")
                .subscribe();
        Producer<String> producer =
                client.newProducer(Schema.STRING).topic(topic).create();
        Set<String> sent = new HashSet<>();
        for (int i = 0; i < 400; i++) {
            producer.newMessage().key("k" + i).value("p-" + i).send();
            sent.add("p-" + i);
        }
        Set<String> received = new HashSet<>();
        Set<String> partitions = new HashSet<>();
        for (int i = 0; i < 400; i++) {
            Message<String> message = consumer.receive(20, TimeUnit.SECONDS);
            assertNotNull(message);
            received.add(message.getValue());
            partitions.add(message.getTopicName());
            consumer.acknowledge(message);
        }
        assertEquals(sent, received);
        assertEquals(4, partitions.size(), "keys spread over all partitions: " + partitions);
    }

    @Test
    void aFourAndAHalfMebibyteMessagePassesWhole() throws Exception {
        String topic = topic("large");
        byte[] payload = new byte[4608 * 1024];
        for (int i = 0; i < payload.length; i++) {
            payload[i] = (byte) (i * 31 + 7);
        }
        PulsarClient client = client();
        Consumer<byte[]> consumer =
                client.newConsumer().topic(topic).subscriptionName("s").subscribe();
        Producer<byte[]> producer =
                client.newProducer().topic(topic).enableBatching(false).create();
        producer.send(payload);
        Message<byte[]> message = consumer.receive(30, TimeUnit.SECONDS);
        assertNotNull(message);
        assertArrayEquals(payload, message.getValue());
    }

    @Test
    void manyProducersAndConsumersShareTwoClientConnections() throws Exception {
        int topics = 8;
        int perTopic = 250;
        PulsarClient publishers = client();
        PulsarClient subscribers = client();
        List<String> names = new ArrayList<>();
        List<Consumer<String>> consumers = new ArrayList<>();
        for (int t = 0; t < topics; t++) {
            String topic = topic("shared-" + t);
            names.add(topic);
            consumers.add(subscribers
                    .newConsumer(Schema.STRING)
                    .topic(topic)
                    .subscriptionName("a")
                    .subscribe());
            consumers.add(publishers
                    .newConsumer(Schema.STRING)
                    .topic(topic)
                    .subscriptionName("b")
                    .subscribe());
        }
        List<CompletableFuture<MessageId>> sends = new ArrayList<>();
        for (String topic : names) {
            Producer<String> p1 =
                    publishers.newProducer(Schema.STRING).topic(topic).create();
            Producer<String> p2 =
                    subscribers.newProducer(Schema.STRING).topic(topic).create();
            for (int i = 0; i < perTopic; i++) {
                sends.add(p1.sendAsync(topic + "/1/" + i));
                sends.add(p2.sendAsync(topic + "/2/" + i));
            }
        }
        CompletableFuture.allOf(sends.toArray(CompletableFuture[]::new)).get(60, TimeUnit.SECONDS);
        for (int c = 0; c < consumers.size(); c++) {
            Consumer<String> consumer = consumers.get(c);
            String topic = names.get(c / 2);
            int next1 = 0;
            int next2 = 0;
            for (int i = 0; i < 2 * perTopic; i++) {
                Message<String> message = consumer.receive(20, TimeUnit.SECONDS);
                assertNotNull(message, "consumer " + c + " got only " + i);
                String[] parts =
                        message.getValue().substring(topic.length() + 1).split("/");
                int seq = Integer.parseInt(parts[1]);
                assertEquals(parts[0].equals("1") ? next1++ : next2++, seq, "per-producer order");
                consumer.acknowledge(message);
            }
        }
    }

    @Test
    void unacknowledgedMessagesAreRedeliveredAndAcknowledgedOnesAreNot() throws Exception {
        String topic = topic("redelivery");
        PulsarClient client = client();
        Producer<String> producer =
                client.newProducer(Schema.STRING).topic(topic).create();
        // Acknowledgements go out at once, so none is still grouped in the client at redelivery time.
        Consumer<String> consumer = client.newConsumer(Schema.STRING)
                .topic(topic)
                .subscriptionName("s")
                .subscriptionType(SubscriptionType.Shared)
                .acknowledgmentGroupTime(0, TimeUnit.MILLISECONDS)
                .subscriptionInitialPosition(SubscriptionInitialPosition.Earliest)
                .subscribe();
        for (int i = 0; i < 10; i++) {
            producer.send("r-" + i);
        }
        for (int i = 0; i < 10; i++) {
            Message<String> message = consumer.receive(20, TimeUnit.SECONDS);
            assertEquals("r-" + i, message.getValue());
            if (i % 2 == 0) {
                consumer.acknowledge(message);
            }
        }
        consumer.redeliverUnacknowledgedMessages();
        Set<String> redelivered = new HashSet<>();
        Message<String> message;
        while ((message = consumer.receive(3, TimeUnit.SECONDS)) != null) {
            redelivered.add(message.getValue());
            consumer.acknowledge(message);
        }
        assertEquals(new HashSet<>(Arrays.asList("r-1", "r-3", "r-5", "r-7", "r-9")), redelivered);
        consumer.close();
        Consumer<String> again = client.newConsumer(Schema.STRING)
                .topic(topic)
                .subscriptionName("s")
                .subscriptionType(SubscriptionType.Shared)
                .subscribe();
        assertNull(again.receive(1, TimeUnit.SECONDS), "everything was acknowledged");
    }
}
