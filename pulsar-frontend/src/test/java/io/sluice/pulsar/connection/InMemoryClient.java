package io.sluice.pulsar.connection;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.sluice.pulsar.codec.FrameWriter;
import io.sluice.pulsar.codec.proto.BaseCommand;
import io.sluice.pulsar.codec.proto.CommandConnect;
import io.sluice.pulsar.codec.proto.CommandProducer;
import io.sluice.pulsar.lookup.BrokerAllowList;
import io.sluice.pulsar.lookup.BrokerAllowList.BrokerAddress;
import io.sluice.pulsar.lookup.LookupMode;
import io.sluice.relay.ProxyServices;
import io.sluice.testing.EmbeddedSocketChannel;
import io.sluice.testing.ManualEventLoop;

import java.time.Duration;

/**
 * A client connection accepted by the proxy's own Pulsar pipeline ({@link PulsarChannelInitializer})
 * on an in-memory socket whose timers follow a manual clock, and the frames a client sends first.
 * The upstream connection it opens is {@code EmbeddedSocketChannel.takeBootstrapped()}.
 */
final class InMemoryClient {

    static final BrokerAddress UPSTREAM = new BrokerAddress("127.0.0.1", 6650);

    private InMemoryClient() {}

    /** A client channel of {@code alloc}'s buffers, accepted on {@code loop} with {@code handshakeTimeout}. */
    static EmbeddedSocketChannel accept(
            ByteBufAllocator alloc, ManualEventLoop loop, ProxyServices services, Duration handshakeTimeout) {
        EmbeddedSocketChannel client = new EmbeddedSocketChannel();
        EmbeddedSocketChannel.takeBootstrapped(); // forget the client itself
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
                                handshakeTimeout),
                        services));
        loop.register(client);
        loop.runTasks();
        return client;
    }

    /** CONNECT as a protocol-21 client without authentication sends it. */
    static ByteBuf connect(ByteBufAllocator alloc) {
        return FrameWriter.encode(
                alloc,
                BaseCommand.newBuilder()
                        .setType(BaseCommand.Type.CONNECT)
                        .setConnect(CommandConnect.newBuilder()
                                .setClientVersion("test")
                                .setProtocolVersion(21))
                        .build());
    }

    /** PRODUCER {@code producerId} on {@code topic}, its request id the same. */
    static ByteBuf producer(ByteBufAllocator alloc, long producerId, String topic) {
        return FrameWriter.encode(
                alloc,
                BaseCommand.newBuilder()
                        .setType(BaseCommand.Type.PRODUCER)
                        .setProducer(CommandProducer.newBuilder()
                                .setTopic(topic)
                                .setProducerId(producerId)
                                .setRequestId(producerId))
                        .build());
    }
}
