package io.sluice.relay.connection;

import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.embedded.EmbeddedChannel;
import io.sluice.relay.FrameView;
import io.sluice.relay.IncompleteFrames;
import io.sluice.relay.MalformedFrameException;
import io.sluice.testing.LeakCheck;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Client decoders under one {@link IncompleteFrames}: what they hold counted per read, the
 * connections with the largest incomplete frames stopped past the bound and read again once the
 * total falls, and a frame not whole within the frame timeout failing its connection.
 */
@ExtendWith(LeakCheck.class)
class IncompleteFramesDecoderTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(30);

    @Test
    void readsOfWholeFramesHoldNothingAndAPartialFrameIsCountedUntilItCompletes() {
        IncompleteFrames bound = new IncompleteFrames(1_000, TIMEOUT);
        Peer peer = new Peer(bound);
        peer.send(Unpooled.buffer().writeInt(2).writeShort(1).writeInt(1).writeByte(2));
        assertEquals(0, bound.bytes());

        peer.send(Unpooled.buffer().writeInt(10).writeInt(7));
        assertEquals(8, bound.bytes(), "a size and four of ten bytes");
        peer.send(Unpooled.buffer().writeShort(1).writeInt(2).writeInt(3));
        assertEquals(4, bound.bytes(), "the next frame's size, none of its body");
        peer.send(Unpooled.buffer().writeByte(0).writeShort(0));
        assertEquals(0, bound.bytes());
        assertEquals(4, peer.frames);
        peer.close();
    }

    @Test
    void pastTheBoundTheLargestIncompleteFrameStopsBeingReadAndASmallOneGoesOn() {
        IncompleteFrames bound = new IncompleteFrames(100, TIMEOUT);
        Peer large = new Peer(bound);
        Peer small = new Peer(bound);
        large.send(Unpooled.buffer().writeInt(1_000).writeZero(100));
        assertEquals(List.of(FrameDecoder.Reads.STOP), large.reads);
        assertEquals(1, bound.stops());

        small.send(Unpooled.buffer().writeInt(6).writeZero(4));
        small.send(Unpooled.buffer().writeZero(2).writeInt(5));
        assertEquals(List.of(), small.reads, "a frame smaller than its fair share is read on");
        assertEquals(1, small.frames);
        assertEquals(104 + 4, bound.bytes());

        small.close();
        large.close();
        assertEquals(0, bound.bytes(), "closed connections hold nothing");
    }

    @Test
    void anEighthOverTheBoundEveryGrowingFrameStops() {
        IncompleteFrames bound = new IncompleteFrames(100, TIMEOUT);
        Peer early = new Peer(bound);
        Peer late = new Peer(bound);
        early.send(Unpooled.buffer().writeInt(1_000).writeZero(90));
        assertEquals(List.of(), early.reads, "under the bound");
        late.send(Unpooled.buffer().writeInt(1_000).writeZero(10));
        assertEquals(List.of(), late.reads, "over the bound, under its fair share, under an eighth over");
        late.send(Unpooled.buffer().writeZero(10));
        assertEquals(List.of(FrameDecoder.Reads.STOP), late.reads, "an eighth over the bound");
        assertEquals(118, bound.bytes());
        early.close();
        late.close();
    }

    @Test
    void aStoppedConnectionIsReadAgainOnceTheTotalHasFallen() {
        IncompleteFrames bound = new IncompleteFrames(100, TIMEOUT);
        Peer large = new Peer(bound);
        Peer other = new Peer(bound);
        large.send(Unpooled.buffer().writeInt(200).writeZero(150));
        other.send(Unpooled.buffer().writeInt(60).writeZero(40));
        assertEquals(List.of(FrameDecoder.Reads.STOP), large.reads);

        other.close();
        large.channel.runPendingTasks();
        assertEquals(List.of(FrameDecoder.Reads.STOP), large.reads, "still over seven eighths of the bound");

        large.send(Unpooled.buffer().writeZero(50));
        large.channel.runPendingTasks();
        assertEquals(List.of(FrameDecoder.Reads.STOP, FrameDecoder.Reads.RESUME), large.reads);
        assertEquals(1, large.frames);
        large.close();
    }

    @Test
    void aFrameStillIncompleteAfterTheFrameTimeoutFailsItsConnection() {
        Peer peer = timed();
        peer.send(Unpooled.buffer().writeInt(100).writeZero(10));
        peer.advance(3_000);
        peer.send(Unpooled.buffer().writeZero(10));
        peer.advance(1_900);
        assertTrue(peer.failures.isEmpty(), "failed before its time");

        peer.advance(200);
        MalformedFrameException failure = assertInstanceOf(MalformedFrameException.class, peer.failures.get(0));
        assertEquals(FrameDecoder.FRAME_TIMEOUT, failure.reason());
        assertEquals(0, peer.bound.bytes(), "what it held is let go at once");
        peer.close();
    }

    @Test
    void eachFrameHasTheWholeTimeoutFromTheReadThatBeganIt() {
        Peer peer = timed();
        for (int i = 0; i < 10; i++) {
            // The end of one frame and half of the next, every 4 s: each frame takes 4 s.
            peer.send(Unpooled.buffer().writeZero(i == 0 ? 0 : 4).writeInt(8).writeZero(4));
            peer.advance(4_000);
        }
        assertTrue(peer.failures.isEmpty(), "a slow stream of frames, each within the timeout, was failed");
        assertEquals(9, peer.frames);
        peer.close();
    }

    @Test
    void aDeadlinePassingWhileSluiceStopsReadingForItsOwnReasonStartsAgain() {
        Peer peer = timed();
        peer.send(Unpooled.buffer().writeInt(100).writeZero(10));
        peer.channel.config().setAutoRead(false);
        peer.advance(6_000);
        assertTrue(peer.failures.isEmpty(), "failed for Sluice's own back-pressure");

        peer.channel.config().setAutoRead(true);
        peer.advance(5_000);
        assertEquals(1, peer.failures.size());
        peer.close();
    }

    @Test
    void anUpstreamDecoderReportsNothing() {
        IncompleteFrames bound = new IncompleteFrames(10, TIMEOUT);
        EmbeddedChannel channel = new EmbeddedChannel(new FrameDecoder(FrameRule.INT32_SIZE, 1_000));
        channel.writeInbound(Unpooled.buffer().writeInt(500).writeZero(100));
        assertEquals(0, bound.bytes());
        assertFalse(channel.finishAndReleaseAll());
    }

    /** A client connection under a frame timeout of 5 s, on a clock the test moves. */
    private static Peer timed() {
        Peer peer = new Peer(new IncompleteFrames(1_000, Duration.ofSeconds(5)));
        peer.channel.freezeTime();
        return peer;
    }

    /** A client connection: its decoder, what it lent, and what it asked of the connection. */
    private static final class Peer extends ChannelInboundHandlerAdapter {

        final IncompleteFrames bound;
        final EmbeddedChannel channel;
        final List<FrameDecoder.Reads> reads = new ArrayList<>();
        final List<Throwable> failures = new ArrayList<>();
        int frames;

        Peer(IncompleteFrames bound) {
            this.bound = bound;
            channel = new EmbeddedChannel(new FrameDecoder(FrameRule.INT32_SIZE, 10_000, bound), this);
        }

        void send(io.netty.buffer.ByteBuf read) {
            channel.writeInbound(read);
        }

        /** Moves the channel's clock on by {@code millis} and runs the timers that came due. */
        void advance(long millis) {
            channel.advanceTimeBy(millis, TimeUnit.MILLISECONDS);
            channel.runScheduledPendingTasks();
        }

        void close() {
            channel.finishAndReleaseAll();
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            assertInstanceOf(FrameView.class, msg);
            frames++;
        }

        @Override
        public void userEventTriggered(ChannelHandlerContext ctx, Object event) {
            reads.add((FrameDecoder.Reads) event);
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            failures.add(cause);
        }
    }
}
