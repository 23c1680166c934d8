package io.sluice.pulsar.codec;

import io.sluice.relay.MalformedFrameException;
import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.ByteToMessageDecoder;

import java.util.List;

/**
 * Splits a Pulsar byte stream into whole frames ({@code [totalSize u32][commandSize u32][command][payload]}).
 *
 * <p>Each frame is emitted as a retained slice of the cumulation buffer, length prefix included, so a
 * frame that passes through unchanged is written out as the very bytes that came in. The receiver
 * owns the slice and must write or release it.
 *
 * <p>A declared size under 4, over the limit, or a command size that does not fit the frame raise a
 * {@link MalformedFrameException}; the proxy closes that connection.
 */
public final class FrameDecoder extends ByteToMessageDecoder {

    /** What a broker allows by default (5 MiB) before it has told us its own figure. */
    public static final int DEFAULT_MAX_MESSAGE_SIZE = 5 * 1024 * 1024;

    /** Frames may exceed the max message size by the command and metadata; Pulsar allows 10 KiB. */
    public static final int FRAME_PADDING = 10 * 1024;

    private int maxFrameSize;
    private boolean paused;

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
    protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
        if (paused || in.readableBytes() < 4) {
            return;
        }
        int start = in.readerIndex();
        long totalSize = in.getUnsignedInt(start);
        if (totalSize < 4) {
            throw discard(in, "bad_length", "frame size " + totalSize + " is smaller than its command size field");
        }
        if (totalSize > maxFrameSize) {
            throw discard(in, "frame_too_large",
                    "frame size " + totalSize + " exceeds the limit of " + maxFrameSize + " bytes");
        }
        if (in.readableBytes() >= 8) {
            long commandSize = in.getUnsignedInt(start + 4);
            if (commandSize == 0 || commandSize > totalSize - 4) {
                throw discard(in, "bad_length",
                        "command size " + commandSize + " does not fit a frame of " + totalSize + " bytes");
            }
        }
        if (in.readableBytes() < 4 + totalSize) {
            return;
        }
        out.add(in.readRetainedSlice(4 + (int) totalSize));
    }

    /** Drops what is buffered: after a framing error nothing later in the stream can be trusted. */
    private static MalformedFrameException discard(ByteBuf in, String reason, String message) {
        in.skipBytes(in.readableBytes());
        return new MalformedFrameException(reason, message);
    }
}
