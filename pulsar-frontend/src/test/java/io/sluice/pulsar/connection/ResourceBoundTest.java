package io.sluice.pulsar.connection;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.UnpooledByteBufAllocator;
import io.netty.channel.embedded.EmbeddedChannel;
import io.sluice.limits.LimitsDocument;
import io.sluice.pulsar.codec.FrameReader;
import io.sluice.pulsar.codec.proto.BaseCommand;
import io.sluice.pulsar.codec.proto.ServerError;
import io.sluice.quota.NanoClock;
import io.sluice.quota.QuotaEngine;
import io.sluice.relay.FrameView;
import io.sluice.relay.ProxyServices;
import io.sluice.testing.EmbeddedSocketChannel;
import io.sluice.testing.LeakCheck;
import io.sluice.testing.ManualEventLoop;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.time.Duration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The producers one connection may have Sluice keep, through the proxy's own client pipeline
 * against an in-memory broker: past the bound a PRODUCER is refused with Sluice's ERROR and never
 * reaches the broker, and the connection goes on.
 */
@ExtendWith(LeakCheck.class)
class ResourceBoundTest {

    private static final int BOUND = 10_000;

    private final UnpooledByteBufAllocator alloc = new UnpooledByteBufAllocator(false);
    private final ManualEventLoop loop = new ManualEventLoop();
    private final ProxyServices services =
            TestServices.withQuotas(new QuotaEngine(LimitsDocument.empty(), NanoClock.SYSTEM));
    private final FakeBroker broker = new FakeBroker(alloc);
    private EmbeddedSocketChannel client;
    private EmbeddedChannel upstream;

    @AfterEach
    void release() {
        client.finishAndReleaseAll();
        if (upstream != null) {
            upstream.finishAndReleaseAll();
        }
        loop.runTasks();
        assertEquals(0, alloc.metric().usedHeapMemory(), "buffers left unreleased");
    }

    @Test
    void aProducerPastTheBoundIsRefusedBySluiceAndTheBrokerNeverSeesIt() {
        connect();
        for (int i = 0; i < BOUND; i++) {
            client.writeInbound(producer(i));
            loop.runTasks();
            broker.answer(upstream);
            loop.runTasks();
            drainClient();
        }
        int producersSeen = countReceived(BaseCommand.Type.PRODUCER);
        assertEquals(BOUND, producersSeen);

        client.writeInbound(producer(BOUND));
        loop.runTasks();
        broker.answer(upstream);
        loop.runTasks();

        assertEquals(BOUND, countReceived(BaseCommand.Type.PRODUCER), "the broker got the refused PRODUCER");
        ByteBuf answer = client.readOutbound();
        BaseCommand error = FrameReader.parse(FrameView.of(answer));
        answer.release();
        assertEquals(BaseCommand.Type.ERROR, error.getType());
        assertEquals(BOUND, error.getError().getRequestId());
        assertEquals(ServerError.NotAllowedError, error.getError().getError());
        assertTrue(
                error.getError().getMessage().startsWith("Sluice: "),
                error.getError().getMessage());
        assertTrue(client.isOpen(), "the connection goes on");
    }

    private void connect() {
        client = InMemoryClient.accept(alloc, loop, services, Duration.ofSeconds(30));
        client.writeInbound(InMemoryClient.connect(alloc));
        loop.runTasks();
        upstream = EmbeddedSocketChannel.takeBootstrapped().get(0);
        broker.answer(upstream);
        loop.runTasks();
        drainClient();
    }

    private ByteBuf producer(long id) {
        return InMemoryClient.producer(alloc, id, "persistent://public/default/t");
    }

    private int countReceived(BaseCommand.Type type) {
        return (int) broker.received.stream().filter(t -> t == type.getNumber()).count();
    }

    private void drainClient() {
        ByteBuf out;
        while ((out = client.readOutbound()) != null) {
            out.release();
        }
    }
}
