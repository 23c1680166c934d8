package io.sluice.relay;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;

/**
 * A frame a decoder lends to the handlers after it: bytes {@code [index, index + length)} of the
 * buffer its read brought in, valid only during the call that hands it over. Reading it in place
 * or forwarding it unchanged ({@link OutboundFrames#add(FrameView)}) allocates nothing and takes
 * no reference per frame; whoever keeps a frame past the call (a held send, an early frame queued
 * until the upstream connects) takes {@link #retainedSlice()}, a buffer of its own.
 *
 * <p>The decoder owns the buffer and reuses one view for all its frames. Confined to the
 * channel's event loop.
 */
public final class FrameView {

    private ByteBuf buffer;
    private int index;
    private int length;

    /**
     * A view of the readable bytes of {@code frame}, a frame in a buffer of its own (a retained
     * slice, a frame Sluice wrote), so that it reads as a lent one does. A new view each call: off
     * the hot path only. {@code frame} stays its owner's; the view is valid while it is.
     */
    public static FrameView of(ByteBuf frame) {
        return new FrameView().lend(frame, frame.readerIndex(), frame.readableBytes());
    }

    /** Points this view at {@code length} bytes of {@code buffer} from {@code index}; for the decoder. */
    public FrameView lend(ByteBuf buffer, int index, int length) {
        this.buffer = buffer;
        this.index = index;
        this.length = length;
        return this;
    }

    /** The buffer the frame is in, which the lender owns. */
    public ByteBuf buffer() {
        return buffer;
    }

    /** Where the frame starts in {@link #buffer()}. */
    public int index() {
        return index;
    }

    /** The frame's size in bytes, length prefix included. */
    public int length() {
        return length;
    }

    /** The frame as a buffer of its own, sharing the bytes: for a frame kept past the call. */
    public ByteBuf retainedSlice() {
        return buffer.retainedSlice(index, length);
    }

    /**
     * The frame as a buffer of its own, to hold for longer than a write takes (a send over quota):
     * a slice when the frame is most of its buffer, else a copy from {@code alloc}, so that a small
     * frame held does not keep a large read buffer alive. What it pins is then its own size, which is
     * what the connection's held bytes count.
     */
    public ByteBuf heldCopy(ByteBufAllocator alloc) {
        return pinsLittle(length, buffer)
                ? retainedSlice()
                : alloc.buffer(length).writeBytes(buffer, index, length);
    }

    /** Whether {@code length} bytes kept as a slice of {@code buffer} keep at most twice as much alive. */
    public static boolean pinsLittle(int length, ByteBuf buffer) {
        return (long) length * 2 >= buffer.capacity();
    }
}
