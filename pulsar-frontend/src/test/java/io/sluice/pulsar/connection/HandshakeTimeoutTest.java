package io.sluice.pulsar.connection;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.UnpooledByteBufAllocator;
import io.netty.channel.embedded.EmbeddedChannel;
import io.sluice.limits.LimitsDocument;
import io.sluice.pulsar.codec.FrameReader;
import io.sluice.pulsar.codec.proto.BaseCommand;
import io.sluice.quota.NanoClock;
import io.sluice.quota.QuotaEngine;
import io.sluice.relay.FrameView;
import io.sluice.relay.ProxyServices;
import io.sluice.relay.connection.HandshakeDeadline;
import io.sluice.testing.EmbeddedSocketChannel;
import io.sluice.testing.LeakCheck;
import io.sluice.testing.ManualEventLoop;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The handshake timeout on the proxy's own client pipeline ({@link PulsarChannelInitializer}), on
 * an in-memory socket whose timers follow a manual clock: a connection is closed when the broker's
 * CONNECTED has not reached it in time, whatever the reason, and never once it has.
 */
@ExtendWith(LeakCheck.class)
class HandshakeTimeoutTest {

    private static final long TIMEOUT_MILLIS = 5_000;

    private final UnpooledByteBufAllocator alloc = new UnpooledByteBufAllocator(false);
    private final ManualEventLoop loop = new ManualEventLoop();
    private final ProxyServices services =
            TestServices.withQuotas(new QuotaEngine(LimitsDocument.empty(), NanoClock.SYSTEM));
    private EmbeddedSocketChannel client;
    private EmbeddedChannel upstream;

    @BeforeEach
    void accept() {
        client = InMemoryClient.accept(alloc, loop, services, Duration.ofMillis(TIMEOUT_MILLIS));
    }

    @AfterEach
    void release() {
        client.finishAndReleaseAll();
        if (upstream != null) {
            upstream.finishAndReleaseAll();
        }
        loop.runTasks();
        assertEquals(0, alloc.metric().usedHeapMemory(), "buffers left unreleased");
        assertEquals(0, services.stats().openConnections(), "connection still counted as open");
        assertFalse(loop.hasTimers(), "a timer outlived its connection");
    }

    @Test
    void aClientThatSendsNothingIsClosedWhenTheTimeoutRunsOut() {
        advance(TIMEOUT_MILLIS - 1);
        assertTrue(client.isOpen(), "closed before the timeout");

        advance(1);

        assertFalse(client.isOpen());
        assertEquals(Map.of(HandshakeDeadline.REASON, 1L), services.stats().protocolErrors());
    }

    @Test
    void halfAConnectFrameAndThenSilenceIsClosedAndItsBytesReleased() {
        ByteBuf connect = connectFrame();
        client.writeInbound(connect.readRetainedSlice(connect.readableBytes() / 2));
        connect.release();
        loop.runTasks();

        advance(TIMEOUT_MILLIS);

        assertFalse(client.isOpen());
        assertEquals(Map.of(HandshakeDeadline.REASON, 1L), services.stats().protocolErrors());
    }

    @Test
    void aBrokerThatNeverAnswersConnectGetsBothConnectionsClosed() {
        client.writeInbound(connectFrame());
        loop.runTasks();
        upstream = EmbeddedSocketChannel.takeBootstrapped().get(0);
        ByteBuf forwarded = upstream.readOutbound();
        assertEquals(
                BaseCommand.Type.CONNECT,
                FrameReader.parse(FrameView.of(forwarded)).getType());
        forwarded.release();

        advance(TIMEOUT_MILLIS);

        assertFalse(client.isOpen());
        assertFalse(upstream.isOpen(), "the upstream connection stays open");
        assertEquals(Map.of(HandshakeDeadline.REASON, 1L), services.stats().protocolErrors());
    }

    @Test
    void aCompletedHandshakeEndsTheTimeout() {
        client.writeInbound(connectFrame());
        loop.runTasks();
        upstream = EmbeddedSocketChannel.takeBootstrapped().get(0);
        new FakeBroker(alloc).answer(upstream);
        loop.runTasks();
        ByteBuf connected = client.readOutbound();
        assertEquals(
                BaseCommand.Type.CONNECTED,
                FrameReader.parse(FrameView.of(connected)).getType());
        connected.release();

        assertNull(client.pipeline().get(HandshakeDeadline.class), "the handler stays in the pipeline");
        assertFalse(loop.hasTimers(), "the timer is still set");
        advance(10 * TIMEOUT_MILLIS);
        assertTrue(client.isOpen());
        assertTrue(upstream.isOpen());
        assertEquals(Map.of(), services.stats().protocolErrors());
        client.close();
    }

    @Test
    void aClientThatLeavesFirstLeavesNoTimerBehind() {
        client.writeInbound(alloc.heapBuffer().writeInt(42));
        client.close();
        loop.runTasks();

        assertFalse(loop.hasTimers());
        advance(TIMEOUT_MILLIS);
        assertEquals(Map.of(), services.stats().protocolErrors());
        assertEquals(List.of(), EmbeddedSocketChannel.takeBootstrapped(), "no upstream for half a frame");
    }

    private void advance(long millis) {
        loop.advanceTimeBy(millis, TimeUnit.MILLISECONDS);
        loop.runTasks();
    }

    private ByteBuf connectFrame() {
        return InMemoryClient.connect(alloc);
    }
}
