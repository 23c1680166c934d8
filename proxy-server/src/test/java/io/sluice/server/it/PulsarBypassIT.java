package io.sluice.server.it;

import io.sluice.limits.ScopeRef;
import io.sluice.pulsar.codec.proto.BaseCommand;
import io.sluice.pulsar.scopes.PulsarScopes;
import io.sluice.testkit.pulsar.PulsarBroker;
import org.apache.pulsar.client.api.PulsarClient;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
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
        try (RawPulsarClient client = new RawPulsarClient(sluice.server.proxyPort())) {
            assertEquals(BaseCommand.Type.CONNECTED, client.connect().getType());
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
        try (RawPulsarClient client = new RawPulsarClient(sluice.server.proxyPort())) {
            assertEquals(BaseCommand.Type.CONNECTED, client.connect().getType());
            assertEquals(
                    BaseCommand.Type.PRODUCER_SUCCESS,
                    client.producer(1, limited).getType());
            byte[][] sends = new byte[20][];
            for (int i = 0; i < sends.length; i++) {
                sends[i] = RawPulsarClient.send(1, i, 1, 100, new byte[100]);
            }
            int stored = receipts(client, sends);
            System.out.printf("under-declared batches: %d of 20 batches of 100 stored under 200 msg/s%n", stored);
            assertTrue(stored <= 3, stored * 100 + " messages stored under a limit of 200/s with a burst of 200");
            assertTrue(stored >= 2, "the burst was admitted: " + stored);
        }
    }
}
