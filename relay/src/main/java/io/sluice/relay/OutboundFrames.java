package io.sluice.relay;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;

/**
 * Frames on their way out through one channel of a connection, flushed at the end of a read batch.
 *
 * <p>The frames one read brings in and the proxy forwards unchanged are slices of the same buffer,
 * one right after the other. Written one by one, each costs a trip down the pipeline, an entry in
 * the outbound buffer and an iovec; joined into one slice of that buffer they go out as a single
 * write of the very same bytes. A frame that does not continue the current run (one the proxy
 * wrote itself, one held back for a while, one from another read) writes the run and starts a
 * new one, so the order on the wire is the order of {@link #add}.
 *
 * <p>Owns each frame from {@link #add} until it is written. Confined to the channel's event loop.
 */
public final class OutboundFrames {

    private final Channel channel;
    /** The run's first frame; null when there is no run. */
    private ByteBuf first;
    /** What the run's frames are slices of; null when the first frame cannot be joined to. */
    private ByteBuf parent;
    private int runStart;
    private int runLength;
    private boolean joined;
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
        if (first != null && parent != null && frameParent == parent && index == runStart + runLength) {
            // The run's first frame keeps the parent alive, so this slice can go.
            runLength += frame.readableBytes();
            joined = true;
            frame.release();
            return;
        }
        writeRun();
        first = frame;
        parent = index < 0 ? null : frameParent;
        runStart = index;
        runLength = frame.readableBytes();
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

    private void writeRun() {
        if (first == null) {
            return;
        }
        ByteBuf run = first;
        if (joined) {
            run = parent.retainedSlice(runStart, runLength);
            first.release();
        }
        first = null;
        parent = null;
        joined = false;
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
