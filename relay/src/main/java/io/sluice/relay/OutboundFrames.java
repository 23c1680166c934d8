package io.sluice.relay;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;

/**
 * Frames on their way out through one channel of a connection, flushed at the end of a read batch.
 *
 * <p>The frames one read brings in and the proxy forwards unchanged lie one right after the other
 * in that read's buffer. Written one by one, each would cost a trip down the pipeline, an entry in
 * the outbound buffer and an iovec; joined into one run they go out as a single write of the very
 * same bytes. Frames a decoder lends ({@link FrameView}) join by their index in its buffer, with no
 * slice or reference of their own; frames the proxy owns (kept for a while, or written itself) join
 * when they lie right after the run in memory. A frame that does not continue the current run
 * writes the run and starts a new one, so the order on the wire is the order of {@code add}.
 *
 * <p>Owns each frame from {@link #add(ByteBuf)} until it is written. Confined to the channel's
 * event loop.
 */
public final class OutboundFrames {

    private final Channel channel;
    /**
     * The reference the run holds: its first frame, or for a run that starts with lent bytes the
     * buffer they are in; null when there is no run.
     */
    private ByteBuf held;
    /** The buffer the run's bytes are in, by index; null when the run cannot be continued. */
    private ByteBuf parent;

    private int runStart;
    private int runLength;
    private boolean unflushed;

    public OutboundFrames(Channel channel) {
        this.channel = channel;
    }

    /** Queues {@code frame} to be written; takes ownership. */
    public void add(ByteBuf frame) {
        ByteBuf frameParent = frame.unwrap();
        // Only a plain slice of a plain buffer. A frame the leak detector wraps has to be released
        // through its wrapper, which records the release; a slice of the buffer under it would not.
        int index = frameParent == null || frameParent.unwrap() != null ? -1 : indexIn(frameParent, frame);
        if (continuesRun(frameParent, index)) {
            // The run's own reference keeps the parent alive, so this slice can go.
            runLength += frame.readableBytes();
            frame.release();
            return;
        }
        writeRun();
        held = frame;
        parent = index < 0 ? null : frameParent;
        runStart = index;
        runLength = frame.readableBytes();
    }

    /**
     * Queues the lent {@code frame} to be written, unchanged: its bytes must stay as they are until
     * then, as a decoder's read buffer does. Takes one reference on the frame's buffer when the
     * frame starts a run, none when it continues one.
     */
    public void add(FrameView frame) {
        if (continuesRun(frame.buffer(), frame.index())) {
            runLength += frame.length();
            return;
        }
        writeRun();
        held = frame.buffer().retain();
        parent = held;
        runStart = frame.index();
        runLength = frame.length();
    }

    /** Writes the pending run, then flushes the channel if anything was written since the last flush. */
    public void flush() {
        writeRun();
        if (unflushed) {
            unflushed = false;
            channel.flush();
        }
    }

    /** Closes {@code channel} once what was written to it is flushed; at once when it is not connected. */
    public static void closeWhenFlushed(Channel channel) {
        if (channel.isActive()) {
            channel.writeAndFlush(Unpooled.EMPTY_BUFFER).addListener(ChannelFutureListener.CLOSE);
        } else {
            channel.close();
        }
    }

    private boolean continuesRun(ByteBuf buffer, int index) {
        return held != null && parent != null && buffer == parent && index == runStart + runLength;
    }

    private void writeRun() {
        if (held == null) {
            return;
        }
        ByteBuf run;
        if (held == parent) {
            // Lent bytes, written under the reference the run took. When that is the buffer's last
            // one (its decoder is done with it), nobody else looks at its indexes: the buffer itself
            // goes out, without a slice.
            run = parent.refCnt() == 1
                    ? parent.setIndex(runStart, runStart + runLength)
                    : parent.slice(runStart, runLength);
        } else if (held.readableBytes() == runLength) {
            run = held;
        } else {
            run = parent.retainedSlice(runStart, runLength);
            held.release();
        }
        held = null;
        parent = null;
        channel.write(run, channel.voidPromise());
        unflushed = true;
    }

    /**
     * Where {@code frame}'s readable bytes start in {@code parent}'s index space, from where both
     * lie in memory; -1 when that cannot be told (a composite buffer, say).
     */
    private static int indexIn(ByteBuf parent, ByteBuf frame) {
        long offset;
        if (frame.hasMemoryAddress() && parent.hasMemoryAddress()) {
            offset = frame.memoryAddress() - parent.memoryAddress();
        } else if (frame.hasArray() && parent.hasArray() && frame.array() == parent.array()) {
            offset = frame.arrayOffset() - parent.arrayOffset();
        } else {
            return -1;
        }
        long index = offset + frame.readerIndex();
        return index < 0 || index + frame.readableBytes() > parent.capacity() ? -1 : (int) index;
    }
}
