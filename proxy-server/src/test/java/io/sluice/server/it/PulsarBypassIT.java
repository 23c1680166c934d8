package io.sluice.server.it;

import io.sluice.limits.ScopeRef;
import io.sluice.pulsar.codec.proto.BaseCommand;
import io.sluice.pulsar.scopes.PulsarScopes;
import io.sluice.testkit.pulsar.PulsarBroker;
import org.apache.pulsar.client.api.Producer;
import org.apache.pulsar.client.api.PulsarClient;
import org.apache.pulsar.client.api.PulsarClientException;
import org.apache.pulsar.client.api.SubscriptionInitialPosition;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static io.sluice.server.it.PublishQuotaIT.limit;
import static io.sluice.server.it.PublishQuotaIT.topic;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Pulsar clients that try to step around a publish limit with raw frames a stock client would not
 * write, through a real Sluice to the real broker: the broker's receipts say what it stored.
 */
class PulsarBypassIT {

    private static final PulsarBroker broker = PulsarBroker.shared();
    private static RunningSluice sluice;

    @BeforeAll
    static void start() {
        sluice = RunningSluice.frontProxy(broker);
    }

    @AfterAll
    static void stop() throws Exception {
        sluice.close();
    }

    private static void rejectAbove(String topic, int messagesPerSecond) throws IOException {
        sluice.server
                .limits()
                .update(d -> d.withLimit(
                        new ScopeRef(PulsarScopes.TOPIC, topic),
                        limit("{\"publish\":{\"messagesPerSecond\":" + messagesPerSecond
                                + ",\"burstSeconds\":1},\"onExceed\":\"reject\"}")));
    }

    /**
     * Creates {@code topics} through Sluice with a stock client first: its lookup loads them on the
     * broker, which the raw client (no lookup) would otherwise wait for.
     */
    private static void load(String... topics) throws Exception {
        try (PulsarClient client = PulsarClient.builder()
                .serviceUrl(sluice.serviceUrl)
                .operationTimeout(60, TimeUnit.SECONDS)
                .build()) {
            for (String topic : topics) {
                client.newProducer().topic(topic).create().close();
            }
        }
    }

    /** A raw client through Sluice, past CONNECT. */
    private static RawPulsarClient connected() throws IOException {
        RawPulsarClient client = new RawPulsarClient(sluice.server.proxyPort());
        assertEquals(BaseCommand.Type.CONNECTED, client.connect().getType());
        return client;
    }

    /** Writes every send at once, then reads as many answers; returns how many were receipts. */
    private static int receipts(RawPulsarClient client, byte[][] sends) throws IOException {
        ByteArrayOutputStream all = new ByteArrayOutputStream();
        for (byte[] send : sends) {
            all.write(send);
        }
        client.write(all.toByteArray());
        int receipts = 0;
        for (int i = 0; i < sends.length; i++) {
            BaseCommand answer = client.readCommand();
            if (answer.getType() == BaseCommand.Type.SEND_RECEIPT) {
                receipts++;
            } else {
                assertEquals(BaseCommand.Type.SEND_ERROR, answer.getType(), answer.toString());
            }
        }
        return receipts;
    }

    @Test
    void aRepeatedProducerIdOnAnUnlimitedTopicStaysUnderItsFirstTopicsLimit() throws Exception {
        String limited = topic("repeat-limited");
        String free = topic("repeat-free");
        rejectAbove(limited, 20);
        load(limited, free);
        try (RawPulsarClient client = connected()) {
            assertEquals(
                    BaseCommand.Type.PRODUCER_SUCCESS,
                    client.producer(1, limited).getType());
            // The broker answers success and keeps producer 1 on the limited topic.
            assertEquals(
                    BaseCommand.Type.PRODUCER_SUCCESS,
                    client.repeatProducer(1, free, 100).getType());
            byte[][] sends = new byte[200][];
            for (int i = 0; i < sends.length; i++) {
                sends[i] = RawPulsarClient.send(1, i, new byte[10]);
            }
            int stored = receipts(client, sends);
            System.out.printf("repeated producer id: %d of 200 sends stored on a topic limited to 20/s%n", stored);
            assertTrue(stored <= 30, "the limited topic received " + stored + " of 200");
            assertTrue(stored >= 20, "the burst was admitted: " + stored);
        }
    }

    @Test
    void batchesThatUnderDeclareTheirCountAreChargedForWhatTheyCarry() throws Exception {
        String limited = topic("lying-count");
        rejectAbove(limited, 200);
        load(limited);
        try (RawPulsarClient client = connected()) {
            assertEquals(
                    BaseCommand.Type.PRODUCER_SUCCESS,
                    client.producer(1, limited).getType());
            byte[][] sends = new byte[20][];
            for (int i = 0; i < sends.length; i++) {
                // 6 bytes a message: the least a batch of 100 can be.
                sends[i] = RawPulsarClient.send(1, i, 1, 100, new byte[600]);
            }
            int stored = receipts(client, sends);
            System.out.printf("under-declared batches: %d of 20 batches of 100 stored under 200 msg/s%n", stored);
            assertTrue(stored <= 3, stored * 100 + " messages stored under a limit of 200/s with a burst of 200");
            assertTrue(stored >= 2, "the burst was admitted: " + stored);
        }
    }

    private static void limitTopic(String topic, String json) throws IOException {
        sluice.server.limits().update(d -> d.withLimit(new ScopeRef(PulsarScopes.TOPIC, topic), limit(json)));
    }

    private static byte[][] sends(long producerId, int count) throws IOException {
        byte[][] sends = new byte[count][];
        for (int i = 0; i < sends.length; i++) {
            sends[i] = RawPulsarClient.send(producerId, i, new byte[10]);
        }
        return sends;
    }

    @Test
    void twoProducersWithOneRequestIdLeaveNeitherUnmetered() throws Exception {
        String limited = topic("request-id-limited");
        String free = topic("request-id-free");
        rejectAbove(limited, 20);
        load(limited, free);
        try (RawPulsarClient client = connected()) {
            ByteArrayOutputStream both = new ByteArrayOutputStream();
            both.write(RawPulsarClient.producerFrame(1, limited, 77));
            both.write(RawPulsarClient.producerFrame(2, free, 77));
            client.write(both.toByteArray());
            List<BaseCommand> answers = List.of(client.readCommand(), client.readCommand());
            assertTrue(
                    answers.stream().anyMatch(a -> a.getType() == BaseCommand.Type.PRODUCER_SUCCESS),
                    "the broker created producer 1: " + answers);
            int stored = receipts(client, sends(1, 200));
            System.out.printf(
                    "two PRODUCERs with request id 77: %d of 200 sends stored on a topic limited to 20/s%n", stored);
            assertTrue(stored <= 30, "the limited topic received " + stored + " of 200");
            assertTrue(stored >= 20, "the burst was admitted: " + stored);
        }
    }

    /**
     * Gives each of {@code topics} a subscription "s" at its start and 300 unbatched messages, with a
     * stock client straight to the broker.
     */
    private static void fill(String... topics) throws Exception {
        try (PulsarClient stock = PulsarClient.builder()
                .serviceUrl(broker.serviceUrl())
                .operationTimeout(60, TimeUnit.SECONDS)
                .build()) {
            for (String topic : topics) {
                stock.newConsumer()
                        .topic(topic)
                        .subscriptionName("s")
                        .subscriptionInitialPosition(SubscriptionInitialPosition.Earliest)
                        .subscribe()
                        .close();
                try (Producer<byte[]> producer =
                        stock.newProducer().topic(topic).enableBatching(false).create()) {
                    for (int i = 0; i < 300; i++) {
                        producer.sendAsync(new byte[10]);
                    }
                    producer.flush();
                }
            }
        }
    }

    @Test
    void aRepeatedConsumerIdOnAnUnlimitedTopicStaysUnderItsFirstTopicsLimit() throws Exception {
        String limited = topic("repeat-consumer-limited");
        String free = topic("repeat-consumer-free");
        limitTopic(limited, "{\"dispatch\":{\"messagesPerSecond\":20,\"burstSeconds\":1}}");
        fill(limited, free);
        try (RawPulsarClient client = connected()) {
            client.write(RawPulsarClient.subscribeFrame(1, limited, "s", 1));
            assertEquals(BaseCommand.Type.SUCCESS, client.readCommand().getType());
            // The broker answers success and keeps consumer 1 on the limited topic.
            client.write(RawPulsarClient.subscribeFrame(1, free, "s", 2));
            assertEquals(BaseCommand.Type.SUCCESS, client.readCommand().getType());
            client.write(RawPulsarClient.flowFrame(1, 1000));
            int received = client.countFor(BaseCommand.Type.MESSAGE, 2_000);
            System.out.printf("repeated consumer id: %d of 300 messages in 2 s from a topic at 20/s%n", received);
            assertTrue(received <= 80, "20/s with a burst of 20 passed " + received + " in 2 s");
            assertTrue(received >= 20, "the burst was dispatched: " + received);
        }
    }

    @Test
    void permitsGrantedBeforeTheSubscriptionIsAnsweredAreMetered() throws Exception {
        String limited = topic("early-flow");
        limitTopic(limited, "{\"dispatch\":{\"messagesPerSecond\":20,\"burstSeconds\":1}}");
        fill(limited);
        try (RawPulsarClient client = connected()) {
            ByteArrayOutputStream both = new ByteArrayOutputStream();
            both.write(RawPulsarClient.subscribeFrame(1, limited, "s", 1));
            both.write(RawPulsarClient.flowFrame(1, 1000));
            client.write(both.toByteArray());
            assertEquals(BaseCommand.Type.SUCCESS, client.readCommand().getType());
            int received = client.countFor(BaseCommand.Type.MESSAGE, 2_000);
            System.out.printf("FLOW written with SUBSCRIBE: %d of 300 messages in 2 s at 20/s%n", received);
            assertTrue(received <= 80, "20/s with a burst of 20 passed " + received + " in 2 s");
            assertTrue(received >= 20, "the early permits were passed on once the consumer existed: " + received);
        }
    }

    @Test
    void aShortTopicNameIsMeteredAsTheTopicItNames() throws Exception {
        String limited = topic("short-name");
        rejectAbove(limited, 20);
        load(limited);
        String local = limited.substring("persistent://public/default/".length());
        try (RawPulsarClient client = connected()) {
            assertEquals(
                    BaseCommand.Type.PRODUCER_SUCCESS, client.producer(1, local).getType());
            assertEquals(
                    BaseCommand.Type.PRODUCER_SUCCESS,
                    client.producer(2, "public/default/" + local).getType());
            int first = receipts(client, sends(1, 100));
            int second = receipts(client, sends(2, 100));
            System.out.printf("short names: %d and %d of 100 sends stored on a topic limited to 20/s%n", first, second);
            assertTrue(first + second <= 30, "the limited topic received " + (first + second) + " of 200");
            assertTrue(first >= 20, "the burst was admitted: " + first);
        }
    }

    @Test
    void aTopicNameTheBrokerWouldRefuseIsRefusedBySluice() throws Exception {
        try (RawPulsarClient client = connected()) {
            BaseCommand answer = client.repeatProducer(1, "public/orders", 1);
            assertEquals(BaseCommand.Type.ERROR, answer.getType());
            assertTrue(answer.getError().getMessage().startsWith("Sluice"), answer.toString());
        }
    }

    /**
     * Poisons {@code limited} (100 msg/s, reject) with one SEND, then has a stock producer send 60
     * messages at 10/s there; returns how many of them went through.
     */
    private static int throughAfter(String limited, byte[] poison) throws Exception {
        rejectAbove(limited, 100);
        load(limited);
        try (RawPulsarClient client = connected()) {
            assertEquals(
                    BaseCommand.Type.PRODUCER_SUCCESS,
                    client.producer(1, limited).getType());
            client.write(poison);
            try {
                System.out.println("the poisoning send was answered "
                        + client.readCommand().getType());
            } catch (EOFException refusedAsMalformed) {
                System.out.println("the poisoning send closed its connection");
            }
        }
        int through = 0;
        try (PulsarClient stock = PulsarClient.builder()
                        .serviceUrl(sluice.serviceUrl)
                        .operationTimeout(60, TimeUnit.SECONDS)
                        .build();
                Producer<byte[]> producer =
                        stock.newProducer().topic(limited).enableBatching(false).create()) {
            for (int i = 0; i < 60; i++) {
                try {
                    producer.send(new byte[10]);
                    through++;
                } catch (PulsarClientException throttled) {
                    // counted as not through
                }
                Thread.sleep(100);
            }
        }
        return through;
    }

    @Test
    void oneSendDeclaringTwoBillionMessagesIsChargedForTheOneItCarries() throws Exception {
        int through = throughAfter(topic("declared-count"), RawPulsarClient.send(1, 0, 2_000_000_000, 1, new byte[10]));
        System.out.printf(
                "after a SEND declaring 2,000,000,000 messages: %d of 60 sends through at 10/s under 100/s%n", through);
        assertEquals(60, through);
    }

    @Test
    void aBatchWhoseCountItsBytesCannotHoldIsRefusedAndChargesNothing() throws Exception {
        int through = throughAfter(topic("batch-count"), RawPulsarClient.send(1, 0, 1, 2_000_000_000, new byte[10]));
        System.out.printf(
                "after a batch of 10 bytes claiming 2,000,000,000 messages: %d of 60 sends through%n", through);
        assertEquals(60, through);
    }
}
