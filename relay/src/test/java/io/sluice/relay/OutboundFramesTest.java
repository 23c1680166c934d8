package io.sluice.relay;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.Unpooled;
import io.netty.buffer.UnpooledByteBufAllocator;
import io.netty.channel.embedded.EmbeddedChannel;
import io.sluice.testing.LeakCheck;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

/** Frames forwarded unchanged from one read leave as one write of the same bytes, in order. */
@ExtendWith(LeakCheck.class)
class OutboundFramesTest {

    private final EmbeddedChannel channel = new EmbeddedChannel();
    private final OutboundFrames out = new OutboundFrames(channel);
    private ByteBuf read;

    /** Buffers the leak detector never wraps, as most are in production (it samples one in 128). */
    private static final ByteBufAllocator UNTRACKED = new UnpooledByteBufAllocator(true, true);

    @AfterEach
    void release() {
        if (read != null) {
            read.release();
        }
        channel.finishAndReleaseAll();
    }

    @ParameterizedTest(name = "direct = {0}")
    @ValueSource(booleans = {true, false})
    void adjacentSlicesOfOneReadGoOutAsOneWriteOfTheSameBytes(boolean direct) {
        read = read(UNTRACKED, direct, "aaaa", "bbb", "cc");
        out.add(read.retainedSlice(0, 4));
        out.add(read.retainedSlice(4, 3));
        out.add(read.retainedSlice(7, 2));
        // As the frame decoder does: done with the read while its frames are still on their way.
        read.release();
        out.flush();

        assertEquals(List.of("aaaabbbcc"), written());
        assertEquals(0, read.refCnt(), "the read buffer is freed once its joined frames are written");
        read = null;
    }

    @Test
    void aGapOrAnotherBufferStartsANewRunAndKeepsTheOrder() {
        read = read(UNTRACKED, true, "aaaa", "XX", "bbb", "cc");
        ByteBuf own = Unpooled.copiedBuffer("own", StandardCharsets.US_ASCII);
        out.add(read.retainedSlice(0, 4));
        out.add(read.retainedSlice(6, 3)); // skips "XX", held back by the proxy
        out.add(own);
        out.add(read.retainedSlice(9, 2));
        out.add(read.retainedSlice(4, 2)); // before the run's start: not a continuation
        out.flush();

        assertEquals(List.of("aaaa", "bbb", "own", "cc", "XX"), written());
    }

    @Test
    void nothingIsWrittenOrFlushedBeforeFlush() {
        read = read(UNTRACKED, true, "aaaa", "bbb");
        out.add(read.retainedSlice(0, 4));
        out.add(read.retainedSlice(4, 3));
        assertNull(channel.readOutbound());

        out.flush();
        assertEquals(List.of("aaaabbb"), written());
        out.flush();
        assertEquals(List.of(), written(), "a second flush writes nothing");
    }

    @Test
    void framesTheLeakDetectorMayTrackGoOutInOrderAndFreeTheirBuffer() {
        read = read(ByteBufAllocator.DEFAULT, true, "aaaa", "bbb", "cc");
        out.add(read.retainedSlice(0, 4));
        out.add(read.retainedSlice(4, 3));
        out.add(read.retainedSlice(7, 2));
        read.release();
        out.flush();

        assertEquals("aaaabbbcc", String.join("", written()));
        assertEquals(0, read.refCnt());
        read = null;
    }

    @ParameterizedTest(name = "direct = {0}")
    @ValueSource(booleans = {true, false})
    void lentFramesOfOneReadGoOutAsTheReadBufferItselfOnceTheDecoderLetsGo(boolean direct) {
        read = read(UNTRACKED, direct, "xx", "aaaa", "bbb", "cc");
        FrameView frame = new FrameView();
        out.add(frame.lend(read, 2, 4));
        out.add(frame.lend(read, 6, 3));
        out.add(frame.lend(read, 9, 2));
        assertEquals(2, read.refCnt(), "one reference for the run, none per frame");
        read.release();
        out.flush();

        ByteBuf written = channel.readOutbound();
        assertSame(read, written, "no slice: the run had the buffer's last reference");
        assertEquals("aaaabbbcc", written.toString(StandardCharsets.US_ASCII));
        written.release();
        assertEquals(0, read.refCnt());
        read = null;
    }

    @Test
    void aLentRunWhoseBufferTheDecoderStillHoldsGoesOutAsASliceAndLeavesItsIndexesAlone() {
        read = read(UNTRACKED, true, "aaaa", "bbb", "partial");
        read.readerIndex(7);
        FrameView frame = new FrameView();
        out.add(frame.lend(read, 0, 4));
        out.add(frame.lend(read, 4, 3));
        out.flush();

        assertEquals(List.of("aaaabbb"), written());
        assertEquals(1, read.refCnt());
        assertEquals("partial", read.toString(StandardCharsets.US_ASCII));
    }

    @Test
    void lentAndOwnedFramesKeepTheirOrderAndJoinWhereTheyLieTogether() {
        read = read(UNTRACKED, true, "aaaa", "bbb", "cc", "XX", "dd");
        FrameView frame = new FrameView();
        out.add(frame.lend(read, 0, 4));
        out.add(Unpooled.copiedBuffer("own", StandardCharsets.US_ASCII));
        out.add(read.retainedSlice(4, 3)); // a frame kept for a while, as held sends are
        out.add(frame.lend(read, 7, 2));
        out.add(frame.lend(read, 11, 2)); // after "XX", which the proxy kept
        out.flush();

        assertEquals(List.of("aaaa", "own", "bbbcc", "dd"), written());
    }

    private static ByteBuf read(ByteBufAllocator alloc, boolean direct, String... frames) {
        String all = String.join("", frames);
        ByteBuf buf = direct ? alloc.directBuffer(all.length()) : alloc.heapBuffer(all.length());
        return buf.writeBytes(all.getBytes(StandardCharsets.US_ASCII));
    }

    private List<String> written() {
        List<String> writes = new ArrayList<>();
        ByteBuf buf;
        while ((buf = channel.readOutbound()) != null) {
            writes.add(buf.toString(StandardCharsets.US_ASCII));
            buf.release();
        }
        return writes;
    }
}
