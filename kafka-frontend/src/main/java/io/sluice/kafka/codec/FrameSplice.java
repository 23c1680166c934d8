package io.sluice.kafka.codec;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.CompositeByteBuf;

/**
 * A new frame made of ranges of an existing one and a few bytes written anew (counts, lengths,
 * the size prefix), as a composite buffer: the ranges are retained slices of the source, so
 * records are never copied. Adjacent ranges become one slice.
 *
 * <p>Used once per frame: {@link #finish} hands the caller the new frame; the source stays the
 * caller's, to release as it would.
 */
final class FrameSplice {

    /** Enough for the size prefix and every count or length one cut writes (five bytes at most each). */
    private static final int SCRATCH_PER_FIELD = 5;

    private final ByteBuf source;
    private final CompositeByteBuf out;
    private final ByteBuf scratch;
    private int runStart = -1;
    private int runEnd = -1;

    /**
     * @param newFields how many counts and lengths will be written anew, for the scratch space
     */
    FrameSplice(ByteBufAllocator alloc, ByteBuf source, int newFields) {
        this.source = source;
        this.out = alloc.compositeBuffer(Integer.MAX_VALUE);
        this.scratch = alloc.buffer(4 + SCRATCH_PER_FIELD * newFields);
        scratch.writeInt(0);
        out.addComponent(true, scratch.retainedSlice(0, 4));
    }

    /** Appends {@code source[from, to)}. */
    FrameSplice copy(int from, int to) {
        if (from == to) {
            return this;
        }
        if (from == runEnd) {
            runEnd = to;
            return this;
        }
        endRun();
        runStart = from;
        runEnd = to;
        return this;
    }

    /** Appends an array's element count, compact (unsigned varint of count + 1) or as an int32. */
    FrameSplice count(int count, boolean compact) {
        return length(count, compact);
    }

    /** Appends a length, compact (unsigned varint of length + 1, 0 for null) or as an int32 (-1 for null). */
    FrameSplice length(int length, boolean compact) {
        endRun();
        int start = scratch.writerIndex();
        if (compact) {
            writeUnsignedVarint(scratch, length + 1);
        } else {
            scratch.writeInt(length);
        }
        out.addComponent(true, scratch.retainedSlice(start, scratch.writerIndex() - start));
        return this;
    }

    /** The new frame, size prefix filled in; the caller owns it. */
    ByteBuf finish() {
        endRun();
        scratch.setInt(0, out.readableBytes() - 4);
        scratch.release();
        return out;
    }

    /** Drops what was built, for a cut that failed half way. */
    void abandon() {
        out.release();
        scratch.release();
    }

    private void endRun() {
        if (runStart >= 0) {
            out.addComponent(true, source.retainedSlice(runStart, runEnd - runStart));
            runStart = -1;
            runEnd = -1;
        }
    }

    private static void writeUnsignedVarint(ByteBuf buf, int value) {
        while ((value & 0xffffff80) != 0) {
            buf.writeByte((value & 0x7f) | 0x80);
            value >>>= 7;
        }
        buf.writeByte(value);
    }
}
