package io.sluice.relay.connection;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.buffer.UnpooledByteBufAllocator;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.embedded.EmbeddedChannel;
import io.sluice.relay.FrameView;
import io.sluice.relay.MalformedFrameException;
import io.sluice.testing.LeakCheck;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The relay's decoder with {@link FrameRule#INT32_SIZE} (Kafka's frames): whole frames lent as the
 * bytes that came whatever the reads, sizes checked as soon as they are in, bytes lent never
 * moved, and paused and woken by its connection. Pulsar's rule through the same decoder is
 * {@code PulsarFrameRuleTest}.
 */
@ExtendWith(LeakCheck.class)
class FrameDecoderTest {

    @Test
    void lendsWholeFramesAsTheBytesThatCameWhateverTheReadBoundaries() {
        byte[] first = frame("first frame");
        byte[] second = frame("2nd");
        for (int chunk = 1; chunk <= first.length + second.length; chunk += 2) {
            ByteBuf stream = Unpooled.wrappedBuffer(first, second);
            EmbeddedChannel channel = new EmbeddedChannel(decoder(64), new KeepFrames());
            while (stream.isReadable()) {
                channel.writeInbound(stream.readRetainedSlice(Math.min(chunk, stream.readableBytes())));
            }
            stream.release();
            ByteBuf out1 = channel.readInbound();
            ByteBuf out2 = channel.readInbound();
            assertArrayEquals(first, bytes(out1), "reads of " + chunk);
            assertArrayEquals(second, bytes(out2), "reads of " + chunk);
            assertNull(channel.readInbound());
            out1.release();
            out2.release();
            channel.finishAndReleaseAll();
        }
    }

    @Test
    void framesOfOneReadAreLentFromTheReadBufferItself() {
        ByteBuf read = Unpooled.buffer().writeInt(1).writeByte(7).writeInt(2).writeShort(8);
        EmbeddedChannel channel = new EmbeddedChannel(decoder(64), new ChannelInboundHandlerAdapter() {
            private int next;

            @Override
            public void channelRead(ChannelHandlerContext ctx, Object msg) {
                FrameView frame = (FrameView) msg;
                assertSame(read, frame.buffer(), "no copy, no slice");
                assertEquals(next == 0 ? 0 : 5, frame.index());
                assertEquals(next == 0 ? 5 : 6, frame.length());
                next++;
            }
        });
        channel.writeInbound(read);
        assertEquals(0, read.refCnt(), "the read buffer is released once its frames are lent");
        channel.finishAndReleaseAll();
    }

    @Test
    void acceptsAFrameOfExactlyTheLimitAndAnEmptyOne() {
        EmbeddedChannel channel = new EmbeddedChannel(decoder(64), new KeepFrames());
        channel.writeInbound(Unpooled.buffer().writeInt(64).writeZero(64).writeInt(0));
        ByteBuf full = channel.readInbound();
        ByteBuf empty = channel.readInbound();
        assertEquals(68, full.readableBytes());
        assertEquals(4, empty.readableBytes());
        full.release();
        empty.release();
        channel.finishAndReleaseAll();
    }

    @Test
    void aSizeOverTheLimitIsRefusedAsSoonAsItsFourBytesAreIn() {
        EmbeddedChannel channel = new EmbeddedChannel(decoder(64), new KeepFrames());
        // Only the size field arrives: the decision cannot wait for the 65 bytes it announces.
        MalformedFrameException e = assertThrows(
                MalformedFrameException.class,
                () -> channel.writeInbound(Unpooled.buffer().writeInt(65)));
        assertEquals("frame_too_large", e.reason());
        assertEquals("frame size 65 exceeds the limit of 64 bytes", e.getMessage());
        channel.finishAndReleaseAll();
    }

    @Test
    void aTwoGibibyteSizeIsTooLargeAndANegativeOneABadLength() {
        EmbeddedChannel huge = new EmbeddedChannel(decoder(100 * 1024 * 1024), new KeepFrames());
        MalformedFrameException tooLarge = assertThrows(
                MalformedFrameException.class,
                () -> huge.writeInbound(
                        Unpooled.buffer().writeInt(Integer.MAX_VALUE).writeInt(7)));
        assertEquals("frame_too_large", tooLarge.reason());
        huge.finishAndReleaseAll();

        EmbeddedChannel negative = new EmbeddedChannel(decoder(64), new KeepFrames());
        MalformedFrameException badLength = assertThrows(
                MalformedFrameException.class,
                () -> negative.writeInbound(Unpooled.buffer().writeInt(0x80000000)));
        assertEquals("bad_length", badLength.reason());
        assertEquals("frame size -2147483648 is negative", badLength.getMessage());
        negative.finishAndReleaseAll();
    }

    @Test
    void aMalformedFrameDropsEverythingBufferedWithIt() {
        UnpooledByteBufAllocator alloc = new UnpooledByteBufAllocator(false);
        CountFrames count = new CountFrames();
        EmbeddedChannel channel = new EmbeddedChannel(decoder(64), count);
        channel.config().setAllocator(alloc);
        channel.writeInbound(alloc.heapBuffer().writeInt(10).writeZero(3));
        assertThrows(
                MalformedFrameException.class,
                () -> channel.writeInbound(
                        alloc.heapBuffer().writeZero(7).writeInt(-1).writeZero(100)));
        assertEquals(1, count.frames);
        assertEquals(0, alloc.metric().usedHeapMemory(), "what was buffered is released at once");
        channel.finishAndReleaseAll();
    }

    @Test
    void bytesOfFramesKeptFromAReadAreNeverWrittenOverByTheNextRead() {
        byte[] first = frame("kept by a handler");
        byte[] second = frame("arrives in two reads");
        ByteBuf read = Unpooled.buffer(1024).writeBytes(first).writeBytes(second, 0, 5);
        EmbeddedChannel channel = new EmbeddedChannel(decoder(64), new KeepFrames());
        channel.writeInbound(read);
        ByteBuf kept = channel.readInbound();
        // The rest of the second frame arrives while the first is still kept, in the same buffer.
        channel.writeInbound(Unpooled.wrappedBuffer(second, 5, second.length - 5));

        assertArrayEquals(first, bytes(kept));
        ByteBuf out2 = channel.readInbound();
        assertArrayEquals(second, bytes(out2));
        kept.release();
        out2.release();
        channel.finishAndReleaseAll();
    }

    @Test
    void aFrameStraddlingTwoReadsTakesOnlyWhatItLacksAndTheRestIsLentFromTheNextRead() {
        byte[] straddling = frame("split over two reads");
        byte[] next = frame("next");
        byte[] last = frame("last");
        ByteBuf secondRead = Unpooled.buffer(64)
                .writeBytes(straddling, 7, straddling.length - 7)
                .writeBytes(next)
                .writeBytes(last);
        List<ByteBuf> lentFrom = new ArrayList<>();
        List<byte[]> frames = new ArrayList<>();
        EmbeddedChannel channel = new EmbeddedChannel(decoder(64), new ChannelInboundHandlerAdapter() {
            @Override
            public void channelRead(ChannelHandlerContext ctx, Object msg) {
                FrameView frame = (FrameView) msg;
                lentFrom.add(frame.buffer());
                frames.add(ByteBufUtil.getBytes(frame.buffer(), frame.index(), frame.length()));
            }
        });
        channel.writeInbound(Unpooled.buffer(64).writeBytes(straddling, 0, 7));
        channel.writeInbound(secondRead);

        assertEquals(3, frames.size());
        assertArrayEquals(straddling, frames.get(0));
        assertArrayEquals(next, frames.get(1));
        assertArrayEquals(last, frames.get(2));
        assertNotSame(secondRead, lentFrom.get(0), "the straddling frame is completed apart");
        assertSame(secondRead, lentFrom.get(1), "the rest of the read is lent in place, not copied");
        assertSame(secondRead, lentFrom.get(2));
        assertEquals(0, secondRead.refCnt());
        channel.finishAndReleaseAll();
    }

    @Test
    void aLengthPrefixSplitOverThreeReadsStillMakesOneFrame() {
        byte[] whole = frame("prefix split");
        EmbeddedChannel channel = new EmbeddedChannel(decoder(64), new KeepFrames());
        channel.writeInbound(Unpooled.wrappedBuffer(whole, 0, 1));
        channel.writeInbound(Unpooled.wrappedBuffer(whole, 1, 2));
        channel.writeInbound(Unpooled.wrappedBuffer(whole, 3, whole.length - 3));
        ByteBuf out = channel.readInbound();
        assertArrayEquals(whole, bytes(out));
        out.release();
        channel.finishAndReleaseAll();
    }

    @Test
    void aStreamThatAlwaysEndsMidFrameDoesNotGrowTheBufferWithoutBound() {
        ByteBuf frame = Unpooled.buffer().writeInt(1000).writeZero(1000);
        int size = frame.readableBytes();
        CountFrames count = new CountFrames();
        EmbeddedChannel channel = new EmbeddedChannel(decoder(4096), count);
        // 2,000 frames, each read ending a third of the way into the next frame.
        ByteBuf stream = Unpooled.buffer(size * 2000);
        for (int i = 0; i < 2000; i++) {
            stream.writeBytes(frame, frame.readerIndex(), size);
        }
        frame.release();
        int read = size + size / 3;
        while (stream.isReadable()) {
            ByteBuf chunk = channel.alloc().buffer(read);
            chunk.writeBytes(stream, Math.min(read, stream.readableBytes()));
            channel.writeInbound(chunk);
        }
        stream.release();
        assertEquals(2000, count.frames);
        assertTrue(count.largestBuffer < 64 * 1024, "buffer grew to " + count.largestBuffer);
        channel.finishAndReleaseAll();
    }

    @Test
    void pausedItKeepsFramesAndWokenItLendsThemFromATaskOfItsOwnThenCompletesTheRead() {
        FrameDecoder decoder = decoder(64);
        CountFrames count = new CountFrames();
        EmbeddedChannel channel = new EmbeddedChannel(decoder, count);
        decoder.pause();
        channel.writeInbound(
                Unpooled.buffer().writeInt(2).writeShort(7).writeInt(1).writeByte(8));
        assertEquals(0, count.frames, "nothing lent while paused");
        int readsCompleted = count.readsCompleted;

        decoder.resume();
        assertEquals(0, count.frames, "not from inside the call that resumed it");
        channel.runPendingTasks();

        assertEquals(2, count.frames);
        assertEquals(
                readsCompleted + 1,
                count.readsCompleted,
                "a read-complete follows, so what the frames caused is flushed");
        channel.finishAndReleaseAll();
    }

    @Test
    void aFramePausingItsDecoderIsTheLastLentUntilItIsWoken() {
        FrameDecoder decoder = decoder(64);
        CountFrames count = new CountFrames();
        count.pauseAfterFirst = decoder;
        EmbeddedChannel channel = new EmbeddedChannel(decoder, count);
        channel.writeInbound(Unpooled.buffer()
                .writeInt(1)
                .writeByte(1)
                .writeInt(1)
                .writeByte(2)
                .writeInt(1)
                .writeByte(3));
        assertEquals(1, count.frames);

        decoder.resume();
        channel.runPendingTasks();
        assertEquals(3, count.frames);
        channel.finishAndReleaseAll();
    }

    @Test
    void aNewLimitAppliesFromTheNextFrame() {
        FrameDecoder decoder = decoder(64);
        EmbeddedChannel channel = new EmbeddedChannel(decoder, new KeepFrames());
        decoder.maxFrameSize(8);
        assertEquals(8, decoder.maxFrameSize());
        MalformedFrameException e = assertThrows(
                MalformedFrameException.class,
                () -> channel.writeInbound(Unpooled.buffer().writeInt(9)));
        assertEquals("frame_too_large", e.reason());
        channel.finishAndReleaseAll();
    }

    @Test
    void refusesALimitThatCannotBeAFrameSize() {
        assertThrows(IllegalArgumentException.class, () -> decoder(0));
        assertThrows(IllegalArgumentException.class, () -> decoder(Integer.MAX_VALUE));
    }

    @Test
    void passesOnWhatIsNotBytes() {
        EmbeddedChannel channel = new EmbeddedChannel(decoder(64));
        channel.writeInbound("not bytes");
        assertEquals("not bytes", channel.readInbound());
        channel.finishAndReleaseAll();
    }

    private static FrameDecoder decoder(int maxFrameSize) {
        return new FrameDecoder(FrameRule.INT32_SIZE, maxFrameSize);
    }

    /** A frame of {@code body} with its int32 size in front. */
    private static byte[] frame(String body) {
        byte[] bytes = body.getBytes(StandardCharsets.US_ASCII);
        return ByteBuffer.allocate(4 + bytes.length)
                .putInt(bytes.length)
                .put(bytes)
                .array();
    }

    private static byte[] bytes(ByteBuf buffer) {
        return ByteBufUtil.getBytes(buffer);
    }

    /** Keeps each lent frame as a buffer of its own, as a handler that holds frames does. */
    private static final class KeepFrames extends ChannelInboundHandlerAdapter {
        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            if (msg instanceof FrameView frame) {
                ctx.fireChannelRead(frame.retainedSlice());
            } else {
                ctx.fireChannelRead(msg);
            }
        }
    }

    /** Counts the frames lent to it and the read-completes, and how large the buffer they came in grew. */
    private static final class CountFrames extends ChannelInboundHandlerAdapter {
        private int frames;
        private int readsCompleted;
        private int largestBuffer;
        private FrameDecoder pauseAfterFirst;

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            FrameView frame = (FrameView) msg;
            frames++;
            largestBuffer = Math.max(largestBuffer, frame.buffer().capacity());
            if (pauseAfterFirst != null && frames == 1) {
                pauseAfterFirst.pause();
            }
        }

        @Override
        public void channelReadComplete(ChannelHandlerContext ctx) {
            readsCompleted++;
        }
    }
}
