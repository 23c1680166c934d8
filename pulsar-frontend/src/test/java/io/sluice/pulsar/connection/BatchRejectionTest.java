package io.sluice.pulsar.connection;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.UnpooledByteBufAllocator;
import io.netty.channel.embedded.EmbeddedChannel;
import io.sluice.limits.LimitsJson;
import io.sluice.limits.ScopeCatalogue;
import io.sluice.pulsar.codec.FrameReader;
import io.sluice.pulsar.codec.TestFrames;
import io.sluice.pulsar.codec.proto.BaseCommand;
import io.sluice.pulsar.codec.proto.CommandSend;
import io.sluice.pulsar.scopes.PulsarScopes;
import io.sluice.quota.NanoClock;
import io.sluice.quota.QuotaEngine;
import io.sluice.relay.FrameView;
import io.sluice.relay.ProxyServices;
import io.sluice.testing.EmbeddedSocketChannel;
import io.sluice.testing.LeakCheck;
import io.sluice.testing.ManualEventLoop;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Regression for a fault-test finding (FaultsIT, limit flipped to reject under load): a rejected
 * batch was answered with its first sequence id, which the Java client ignores (it matches errors
 * against a batch's highest sequence id), so the batch stayed pending for ever and the producer
 * stalled. The SendError must name the batch's highest sequence id.
 */
@ExtendWith(LeakCheck.class)
class BatchRejectionTest {

    private static final String TOPIC = "persistent://public/default/batches";

    @Test
    void aRejectedBatchIsAnsweredWithItsHighestSequenceId() throws Exception {
        UnpooledByteBufAllocator alloc = new UnpooledByteBufAllocator(false);
        ProxyServices services = TestServices.withQuotas(new QuotaEngine(
                LimitsJson.parseDocument(
                        ("{\"topics\": {\"" + TOPIC
                                        + "\": {\"publish\": {\"messagesPerSecond\": 1, \"burstSeconds\": 1}, \"onExceed\": \"reject\"}}}")
                                .getBytes(StandardCharsets.UTF_8),
                        ScopeCatalogue.of(PulsarScopes.DECLARED)),
                NanoClock.SYSTEM));
        ManualEventLoop loop = new ManualEventLoop();
        EmbeddedSocketChannel client =
                InMemoryClient.accept(alloc, loop, services, PulsarSettings.DEFAULT_HANDSHAKE_TIMEOUT);
        FakeBroker broker = new FakeBroker(alloc);

        client.writeInbound(InMemoryClient.connect(alloc));
        loop.runTasks();
        EmbeddedChannel upstream = EmbeddedSocketChannel.takeBootstrapped().get(0);
        broker.answer(upstream);
        loop.runTasks();
        client.writeInbound(InMemoryClient.producer(alloc, 1, TOPIC));
        broker.answer(upstream);
        // Two batches of five: the first takes the bucket (and drives it negative), the second is refused.
        client.writeInbound(batch(0, 4), batch(5, 9));
        loop.runTasks();
        broker.answer(upstream);
        loop.runTasks();

        List<BaseCommand> answers = new ArrayList<>();
        ByteBuf out;
        while ((out = client.readOutbound()) != null) {
            answers.add(FrameReader.parse(FrameView.of(out)));
            out.release();
        }
        BaseCommand error = answers.stream()
                .filter(c -> c.getType() == BaseCommand.Type.SEND_ERROR)
                .findFirst()
                .orElseThrow(() -> new AssertionError("no SendError; open " + client.isOpen() + ", answers " + answers
                        + ", errors " + services.stats().protocolErrors()));
        assertEquals(9, error.getSendError().getSequenceId(), "answers: " + answers);
        assertEquals(1, services.stats().openConnections(), "the connection stays open");
        client.finishAndReleaseAll();
        upstream.finishAndReleaseAll();
    }

    /** A batch SEND of messages {@code first..last}, as the Java client frames it. */
    private static ByteBuf batch(long first, long last) {
        int messages = (int) (last - first + 1);
        return TestFrames.withBatch(
                BaseCommand.newBuilder()
                        .setType(BaseCommand.Type.SEND)
                        .setSend(CommandSend.newBuilder()
                                .setProducerId(1)
                                .setSequenceId(first)
                                .setHighestSequenceId(last)
                                .setNumMessages(messages))
                        .build(),
                messages,
                messages * 16);
    }
}
