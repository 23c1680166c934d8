package io.sluice.kafka.codec;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.sluice.relay.FrameView;
import io.sluice.relay.MalformedFrameException;

/**
 * Splits a Kafka byte stream into whole frames ({@code [size int32][header][body]}), requests on the
 * client side and responses on the broker side, and lends each to the next handler as a
 * {@link FrameView} of the bytes read, size prefix included: reading a frame or forwarding it
 * unchanged costs no allocation, and a frame that passes through goes out as the very bytes that
 * came in. The view is valid during the call only; a handler that keeps a frame takes
 * {@link FrameView#retainedSlice()}.
 *
 * <p>Owns what it has read: the bytes of frames not yet whole, and the read buffer while its
 * frames are lent. A buffer that still holds part of a frame is appended to while nobody else
 * holds a reference to it, and copied into a new one otherwise, so bytes lent or kept earlier
 * never move. (The same contract as the Pulsar front end's decoder; only {@link #frameLength}, the
 * frame rule, is Kafka's.)
 *
 * <p>A negative size or one over the limit raises a {@link MalformedFrameException} as soon as the
 * four size bytes are in, before any of the body is buffered; the proxy closes that connection.
 */
public final class KafkaFrameDecoder extends ChannelInboundHandlerAdapter {

    /** A broker's default {@code socket.request.max.bytes} (100 MiB), the largest request it reads. */
    public static final int DEFAULT_MAX_REQUEST_SIZE = 100 * 1024 * 1024;

    private final FrameView frame = new FrameView();
    private final int maxFrameSize;
    private ByteBuf buffered;
    private boolean paused;
    private boolean decoding;

    /**
     * @param maxFrameSize the largest size field accepted: the broker's {@code socket.request.max.bytes}
     *                     for requests; responses (fetches) may be larger and get their own limit
     */
    public KafkaFrameDecoder(int maxFrameSize) {
        if (maxFrameSize <= 0 || maxFrameSize > Integer.MAX_VALUE - 4) {
            throw new IllegalArgumentException(
                    "maxFrameSize must be positive and leave room for the size prefix: " + maxFrameSize);
        }
        this.maxFrameSize = maxFrameSize;
    }

    public int maxFrameSize() {
        return maxFrameSize;
    }

    /**
     * Stops emitting frames; bytes already received stay buffered. With reading paused as well, this
     * bounds what a pipelining client can push past the in-flight limit to what one read holds.
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
     * The size of the frame at the start of {@code in}, size prefix included; -1 when it has not all
     * arrived yet. Validates the size as soon as its four bytes are there.
     */
    private int frameLength(ByteBuf in) {
        if (in.readableBytes() < 4) {
            return -1;
        }
        int size = in.getInt(in.readerIndex());
        if (size < 0) {
            throw discard(in, "bad_length", "frame size " + size + " is negative");
        }
        if (size > maxFrameSize) {
            throw discard(
                    in, "frame_too_large", "frame size " + size + " exceeds the limit of " + maxFrameSize + " bytes");
        }
        return in.readableBytes() - 4 < size ? -1 : 4 + size;
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
