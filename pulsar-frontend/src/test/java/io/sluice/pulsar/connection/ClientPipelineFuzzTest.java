package io.sluice.pulsar.connection;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.netty.buffer.UnpooledByteBufAllocator;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.util.ReferenceCountUtil;
import io.sluice.limits.LimitsJson;
import io.sluice.limits.ScopeCatalogue;
import io.sluice.pulsar.codec.proto.BaseCommand;
import io.sluice.pulsar.lookup.BrokerAllowList;
import io.sluice.pulsar.lookup.BrokerAllowList.BrokerAddress;
import io.sluice.pulsar.lookup.LookupMode;
import io.sluice.pulsar.scopes.PulsarScopes;
import io.sluice.quota.NanoClock;
import io.sluice.quota.QuotaEngine;
import io.sluice.relay.ProxyServices;
import io.sluice.relay.ProxyStats;
import io.sluice.testing.ByteMutator;
import io.sluice.testing.EmbeddedSocketChannel;
import io.sluice.testing.FuzzCorpus;
import io.sluice.testing.LeakCheck;
import io.sluice.testing.ManualEventLoop;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Arbitrary bytes from a client through the proxy's whole client-side pipeline (the handlers of
 * {@link PulsarChannelInitializer}), with an in-memory upstream answered by {@link FakeBroker}, under
 * limits that make sends be held, rejected and the connection paused. Whatever arrives, the
 * connection either carries on or is closed for a counted reason (a protocol error, a refused
 * broker); an unexpected exception would close it with no reason counted. No buffer leaks.
 *
 * <p>Seeds ({@code ClientPipelineFuzzTestInputs/clientBytes}): whole client byte streams a real
 * pulsar-client sent (see CorpusCaptureIT), and the inputs of bugs found.
 */
@ExtendWith(LeakCheck.class)
class ClientPipelineFuzzTest {

    private static final int GENERATED_INPUTS = 2_000;

    /** A delay limit for every topic, a reject limit for one, and small connection limits. */
    private static final String LIMITS = """
            {
              "topics": {"persistent://public/default/fuzz-reject": {"publish": {"messagesPerSecond": 2}, "onExceed": "reject"}},
              "proxy": {"publish": {"messagesPerSecond": 5}, "dispatch": {"messagesPerSecond": 5}},
              "connection": {"maxPendingSends": 6, "maxHeldBytes": 2048}
            }""";

    /** One loop for every input's channels: the proxy's timers run when the test moves its clock. */
    private static final ManualEventLoop LOOP = new ManualEventLoop();

    private static final AtomicLong INPUTS_THAT_PUBLISHED = new AtomicLong();

    private static final BrokerAddress UPSTREAM = new BrokerAddress("127.0.0.1", 6650);
    /** Any broker is allowed, so that recorded connections naming the recording broker get through. */
    private static final PulsarSettings SETTINGS = new PulsarSettings(
            UPSTREAM,
            new BrokerAllowList(Pattern.compile(".*")),
            LookupMode.REWRITE,
            1_000,
            EmbeddedSocketChannel.class);

    @FuzzTest(maxDuration = "10m")
    void clientBytes(byte[] input) throws Exception {
        UnpooledByteBufAllocator alloc = new UnpooledByteBufAllocator(false);
        ProxyServices services = TestServices.withQuotas(new QuotaEngine(
                LimitsJson.parseDocument(
                        LIMITS.getBytes(StandardCharsets.UTF_8), ScopeCatalogue.of(PulsarScopes.DECLARED)),
                NanoClock.SYSTEM));
        EmbeddedSocketChannel client = new EmbeddedSocketChannel();
        client.config().setAllocator(alloc);
        client.pipeline().addLast(new PulsarChannelInitializer(SETTINGS, services));
        LOOP.register(client);
        LOOP.runTasks();
        FakeBroker broker = new FakeBroker(alloc);
        List<EmbeddedSocketChannel> upstreams = new ArrayList<>();
        EmbeddedSocketChannel.takeBootstrapped();

        // A read per frame, as a client that waits for answers writes them, and one frame cut where
        // the input says; time for held sends to be released after each read.
        List<Integer> cuts = reads(input);
        for (int i = 0; i + 1 < cuts.size() && client.isOpen(); i++) {
            client.writeInbound(alloc.heapBuffer().writeBytes(input, cuts.get(i), cuts.get(i + 1) - cuts.get(i)));
            exchange(client, upstreams, broker);
            LOOP.advanceTimeBy(50, TimeUnit.MILLISECONDS);
            LOOP.runTasks();
            exchange(client, upstreams, broker);
        }
        boolean closedByProxy = !client.isOpen();
        client.close();
        LOOP.runTasks();
        exchange(client, upstreams, broker);
        client.finishAndReleaseAll();
        upstreams.forEach(EmbeddedChannel::finishAndReleaseAll);
        LOOP.runTasks();
        if (broker.received.contains(BaseCommand.Type.SEND_VALUE)) {
            INPUTS_THAT_PUBLISHED.incrementAndGet();
        }

        ProxyStats stats = services.stats();
        long reasons = stats.protocolErrors().values().stream()
                        .mapToLong(Long::longValue)
                        .sum()
                + stats.upstreamConnectFailures();
        assertTrue(!closedByProxy || reasons > 0, "closed without a counted reason: " + stats.protocolErrors());
        assertEquals(0, stats.openConnections(), "connection still counted as open");
        assertEquals(0, alloc.metric().usedHeapMemory(), "buffers left unreleased");
    }

    @Test
    void generatedInputs() throws Exception {
        ByteMutator mutator = new ByteMutator(4_2024L, FuzzCorpus.of(ClientPipelineFuzzTest.class, "clientBytes"));
        for (int i = 0; i < GENERATED_INPUTS; i++) {
            byte[] input = mutator.next();
            try {
                clientBytes(input);
            } catch (Exception | AssertionError e) {
                throw new AssertionError("input " + HexFormat.of().formatHex(input), e);
            }
        }
        assertTrue(
                INPUTS_THAT_PUBLISHED.get() > GENERATED_INPUTS / 50,
                "only " + INPUTS_THAT_PUBLISHED.get() + " inputs got as far as publishing");
    }

    /**
     * Where the reads of {@code input} start and end: at the end of each whole frame its length
     * prefixes announce (the rest, if they stop making sense, is one read), and where input[0] cuts.
     */
    private static List<Integer> reads(byte[] input) {
        TreeSet<Integer> cuts = new TreeSet<>(List.of(0, input.length));
        int pos = 0;
        while (pos + 4 <= input.length) {
            long next = pos + 4L + ByteBuffer.wrap(input, pos, 4).getInt();
            if (next <= pos + 4 || next > input.length) {
                break;
            }
            pos = (int) next;
            cuts.add(pos);
        }
        if (input.length > 0) {
            cuts.add((input[0] & 0xff) * input.length / 256);
        }
        return new ArrayList<>(cuts);
    }

    /** Lets the proxy and the fake broker answer each other until neither has more to say. */
    private static void exchange(
            EmbeddedSocketChannel client, List<EmbeddedSocketChannel> upstreams, FakeBroker broker) {
        for (int round = 0; round < 20; round++) {
            LOOP.runTasks();
            upstreams.addAll(EmbeddedSocketChannel.takeBootstrapped());
            int moved = 0;
            for (EmbeddedChannel upstream : upstreams) {
                moved += broker.answer(upstream);
                LOOP.runTasks();
            }
            Object out;
            while ((out = client.readOutbound()) != null) {
                moved++;
                ReferenceCountUtil.release(out);
            }
            if (moved == 0) {
                return;
            }
        }
    }
}
