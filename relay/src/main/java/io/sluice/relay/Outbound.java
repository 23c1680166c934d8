package io.sluice.relay;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;

/**
 * Where a gate sends frames: the two sides of one proxied connection, as narrow as a gate needs.
 * Frames are queued and go out at the end of the current read batch or at {@link #flush}. Every
 * method runs on the connection's event loop.
 */
public interface Outbound {

    /** Queues {@code frame} for the upstream broker; takes ownership. */
    void toUpstream(ByteBuf frame);

    /** Queues {@code frame} for the client; takes ownership. */
    void toClient(ByteBuf frame);

    /**
     * Queues the lent {@code frame} for the upstream broker, unchanged; it stays the lender's. By
     * default as a slice of its own; a connection whose decoder lends frames joins them by index.
     */
    default void toUpstream(FrameView frame) {
        toUpstream(frame.retainedSlice());
    }

    /** Queues the lent {@code frame} for the client, unchanged; it stays the lender's. See {@link #toUpstream(FrameView)}. */
    default void toClient(FrameView frame) {
        toClient(frame.retainedSlice());
    }

    /** Writes and flushes what is queued on both sides, for work done outside a read (a timer). */
    void flush();

    /** The allocator for frames Sluice writes itself. */
    ByteBufAllocator alloc();
}
