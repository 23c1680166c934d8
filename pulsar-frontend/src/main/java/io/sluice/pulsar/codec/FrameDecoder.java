package io.sluice.pulsar.codec;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.sluice.relay.FrameView;
import io.sluice.relay.MalformedFrameException;

/**
 * Splits a Pulsar byte stream into whole frames ({@code [totalSize u32][commandSize u32][command][payload]})
 * and lends each to the next handler as a {@link FrameView} of the bytes read, length prefix
 * included: reading a frame or forwarding it unchanged costs no allocation, and a frame that
 * passes through goes out as the very bytes that came in. The view is valid during the call only;
 * a handler that keeps a frame takes {@link FrameView#retainedSlice()}.
 *
 * <p>Owns what it has read: the bytes of frames not yet whole, and the read buffer while its
 * frames are lent. A buffer that still holds part of a frame is appended to while nobody else
 * holds a reference to it, and copied into a new one otherwise, so bytes lent or kept earlier
 * never move.
 *
 * <p>A declared size under 4, over the limit, or a command size that does not fit the frame raise a
 * {@link MalformedFrameException}; the proxy closes that connection.
 */
public final class FrameDecoder extends ChannelInboundHandlerAdapter {

    /** What a broker allows by default (5 MiB) before it has told us its own figure. */
    public static final int DEFAULT_MAX_MESSAGE_SIZE = 5 * 1024 * 1024;

    /** Frames may exceed the max message size by the command and metadata; Pulsar allows 10 KiB. */
    public static final int FRAME_PADDING = 10 * 1024;

    private final FrameView frame = new FrameView();
    private ByteBuf buffered;
    private int maxFrameSize;
    private boolean paused;
    private boolean decoding;

    public FrameDecoder() {
        this(DEFAULT_MAX_MESSAGE_SIZE);
    }

    public FrameDecoder(int maxMessageSize) {
        setMaxMessageSize(maxMessageSize);
    }

    /** Applies the broker's {@code max_message_size}; called on the channel's event loop. */
    public void setMaxMessageSize(int maxMessageSize) {
        if (maxMessageSize <= 0) {
            throw new IllegalArgumentException("maxMessageSize must be positive: " + maxMessageSize);
        }
        this.maxFrameSize = maxMessageSize + FRAME_PADDING;
    }

    public int maxFrameSize() {
        return maxFrameSize;
    }

    /**
     * Stops emitting frames; bytes already received stay buffered. With reading paused as well,
     * this bounds what a flooding client can push past the proxy's limits to one frame.
     */
    public void pause() {
        paused = true;
    }

    /** Emits frames again, from the next bytes that arrive or an empty buffer fired to wake it. */
    public void resume() {
        paused = false;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (!(msg instanceof ByteBuf read)) {
            ctx.fireChannelRead(msg);
            return;
        }
        append(ctx.alloc(), read);
        if (decoding) {
            // A handler fired bytes at us while taking a frame: the loop below comes to them.
            return;
        }
        decoding = true;
        try {
            while (!paused && buffered != null) {
                int length = frameLength(buffered);
                if (length < 0) {
                    break;
                }
                int start = buffered.readerIndex();
                buffered.skipBytes(length);
                ctx.fireChannelRead(frame.lend(buffered, start, length));
            }
        } finally {
            decoding = false;
            if (buffered != null && !buffered.isReadable()) {
                releaseBuffered();
            }
        }
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        releaseBuffered();
        ctx.fireChannelInactive();
    }

    @Override
    public void handlerRemoved(ChannelHandlerContext ctx) {
        releaseBuffered();
    }

    /**
     * The size of the frame at the start of {@code in}, length prefix included; -1 when it has not
     * all arrived yet. Validates the sizes as soon as they are there.
     */
    private int frameLength(ByteBuf in) {
        if (in.readableBytes() < 4) {
            return -1;
        }
        int start = in.readerIndex();
        long totalSize = in.getUnsignedInt(start);
        if (totalSize < 4) {
            throw discard(in, "bad_length", "frame size " + totalSize + " is smaller than its command size field");
        }
        if (totalSize > maxFrameSize) {
            throw discard(
                    in,
                    "frame_too_large",
                    "frame size " + totalSize + " exceeds the limit of " + maxFrameSize + " bytes");
        }
        if (in.readableBytes() >= 8) {
            long commandSize = in.getUnsignedInt(start + 4);
            if (commandSize == 0 || commandSize > totalSize - 4) {
                throw discard(
                        in,
                        "bad_length",
                        "command size " + commandSize + " does not fit a frame of " + totalSize + " bytes");
            }
        }
        return in.readableBytes() < 4 + totalSize ? -1 : 4 + (int) totalSize;
    }

    /** Adds {@code read} to what is buffered; takes ownership of it. */
    private void append(ByteBufAllocator alloc, ByteBuf read) {
        if (buffered == null) {
            buffered = read;
            return;
        }
        try {
            int needed = read.readableBytes();
            boolean alone = buffered.refCnt() == 1;
            if (buffered.isReadOnly()
                    || needed > buffered.maxWritableBytes()
                    || (!alone && needed > buffered.maxFastWritableBytes())) {
                // Others hold frames in this buffer (lent, held): leave them be, go on in a new one.
                ByteBuf merged = alloc.buffer(buffered.readableBytes() + needed);
                merged.writeBytes(buffered);
                buffered.release();
                buffered = merged;
            } else if (alone && needed > buffered.maxFastWritableBytes()) {
                // Ours alone: make room by moving the partial frame to the front.
                buffered.discardReadBytes();
            }
            buffered.writeBytes(read);
        } finally {
            read.release();
        }
    }

    private void releaseBuffered() {
        if (buffered != null) {
            buffered.release();
            buffered = null;
        }
    }

    /** Drops what is buffered: after a framing error nothing later in the stream can be trusted. */
    private static MalformedFrameException discard(ByteBuf in, String reason, String message) {
        in.skipBytes(in.readableBytes());
        return new MalformedFrameException(reason, message);
    }
}
