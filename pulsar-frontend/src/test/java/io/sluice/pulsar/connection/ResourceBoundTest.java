package io.sluice.pulsar.connection;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.UnpooledByteBufAllocator;
import io.netty.channel.embedded.EmbeddedChannel;
import io.sluice.limits.LimitsDocument;
import io.sluice.pulsar.codec.FrameReader;
import io.sluice.pulsar.codec.FrameWriter;
import io.sluice.pulsar.codec.proto.BaseCommand;
import io.sluice.pulsar.codec.proto.CommandConnect;
import io.sluice.pulsar.codec.proto.CommandProducer;
import io.sluice.pulsar.codec.proto.ServerError;
import io.sluice.pulsar.lookup.BrokerAllowList;
import io.sluice.pulsar.lookup.BrokerAllowList.BrokerAddress;
import io.sluice.pulsar.lookup.LookupMode;
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

    private static final BrokerAddress UPSTREAM = new BrokerAddress("127.0.0.1", 6650);
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
        client = new EmbeddedSocketChannel();
        EmbeddedSocketChannel.takeBootstrapped();
        client.config().setAllocator(alloc);
        client.pipeline()
                .addLast(new PulsarChannelInitializer(
                        new PulsarSettings(
                                UPSTREAM,
                                BrokerAllowList.only(UPSTREAM),
                                LookupMode.REWRITE,
                                1_000,
                                EmbeddedSocketChannel.class,
                                PulsarSettings.DEFAULT_THROTTLE_RECEIPT_WINDOW,
                                Duration.ofSeconds(30)),
                        services));
        loop.register(client);
        loop.runTasks();
        client.writeInbound(FrameWriter.encode(
                alloc,
                BaseCommand.newBuilder()
                        .setType(BaseCommand.Type.CONNECT)
                        .setConnect(CommandConnect.newBuilder()
                                .setClientVersion("test")
                                .setProtocolVersion(21))
                        .build()));
        loop.runTasks();
        upstream = EmbeddedSocketChannel.takeBootstrapped().get(0);
        broker.answer(upstream);
        loop.runTasks();
        drainClient();
    }

    private ByteBuf producer(long id) {
        return FrameWriter.encode(
                alloc,
                BaseCommand.newBuilder()
                        .setType(BaseCommand.Type.PRODUCER)
                        .setProducer(CommandProducer.newBuilder()
                                .setTopic("persistent://public/default/t")
                                .setProducerId(id)
                                .setRequestId(id))
                        .build());
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
