package io.sluice.kafka.connection;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.sluice.testing.ByteMutator;
import io.sluice.testing.FuzzCorpus;
import io.sluice.testing.LeakCheck;
import org.apache.kafka.common.protocol.ApiKeys;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Arbitrary bytes from a client through the whole Kafka client pipeline (the handlers of
 * {@link KafkaChannelInitializer}), with an in-memory upstream answered by {@link FakeBroker}.
 * Whatever arrives, the connection either carries on or is closed for a counted reason (a protocol
 * error, an upstream that cannot be reached); an unexpected exception would close it with no reason
 * counted. No buffer leaks, and the connection is no longer counted once closed.
 *
 * <p>Seeds ({@code ClientPipelineFuzzTestInputs/clientBytes}): whole client byte streams of real
 * kafka-clients producers, consumers and admin clients through Sluice to a real cluster (see
 * proxy-server's {@code KafkaCorpusCaptureIT}), and the inputs of bugs found.
 */
@ExtendWith(LeakCheck.class)
class ClientPipelineFuzzTest {

    private static final int GENERATED_INPUTS = 1_500;
    private static final AtomicLong INPUTS_THAT_PRODUCED = new AtomicLong();

    @FuzzTest(maxDuration = "10m")
    void clientBytes(byte[] input) {
        FakeBroker broker = new FakeBroker();
        ConnectionHarness harness = new ConnectionHarness();
        // In three reads, split where the input says, with time passing between them.
        int first = input.length == 0 ? 0 : (input[0] & 0xff) * input.length / 256;
        int second = input.length < 2 ? first : first + (input[1] & 0xff) * (input.length - first) / 256;
        int[] cuts = {0, first, second, input.length};
        for (int i = 0; i < 3 && harness.client.isOpen(); i++) {
            harness.clientSends(Arrays.copyOfRange(input, cuts[i], cuts[i + 1]));
            exchange(harness, broker);
            harness.advance(Duration.ofMillis(150));
            exchange(harness, broker);
        }
        boolean closedBySluice = !harness.client.isOpen();
        harness.close();
        if (broker.received.contains(ApiKeys.PRODUCE)) {
            INPUTS_THAT_PRODUCED.incrementAndGet();
        }

        long reasons = harness.stats.protocolErrors().values().stream()
                        .mapToLong(Long::longValue)
                        .sum()
                + harness.stats.upstreamConnectFailures();
        assertTrue(!closedBySluice || reasons > 0, "closed without a counted reason");
        assertEquals(0, harness.stats.openConnections(), "connection still counted as open");
        assertEquals(0, harness.alloc.metric().usedHeapMemory(), "buffers left unreleased");
    }

    @Test
    void generatedInputs() {
        new ByteMutator(13_2026L, FuzzCorpus.of(ClientPipelineFuzzTest.class, "clientBytes"))
                .feed(GENERATED_INPUTS, input -> clientBytes(input));
        assertTrue(
                INPUTS_THAT_PRODUCED.get() > GENERATED_INPUTS / 50,
                "only " + INPUTS_THAT_PRODUCED.get() + " inputs got as far as producing");
    }

    /** Lets Sluice and the fake broker answer each other until neither has more to say. */
    private static void exchange(ConnectionHarness harness, FakeBroker broker) {
        for (int round = 0; round < 20; round++) {
            int moved = broker.answer(harness);
            int toClient = harness.clientReceived().length;
            if (moved == 0 && toClient == 0) {
                return;
            }
        }
    }
}
