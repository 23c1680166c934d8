package io.sluice.kafka.codec;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.ByteToMessageDecoder;
import io.sluice.relay.MalformedFrameException;

import java.util.List;

/**
 * Splits a Kafka byte stream into whole frames ({@code [size int32][header][body]}), requests on the
 * client side and responses on the broker side.
 *
 * <p>Each frame is emitted as a retained slice of the cumulation buffer, size prefix included, so a
 * frame that passes through unchanged is written out as the very bytes that came in. The receiver
 * owns the slice and must write or release it.
 *
 * <p>A negative size or one over the limit raises a {@link MalformedFrameException} as soon as the
 * four size bytes are in, before any of the body is buffered; the proxy closes that connection.
 */
public final class KafkaFrameDecoder extends ByteToMessageDecoder {

    /** A broker's default {@code socket.request.max.bytes} (100 MiB), the largest request it reads. */
    public static final int DEFAULT_MAX_REQUEST_SIZE = 100 * 1024 * 1024;

    private final int maxFrameSize;
    private boolean paused;

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
    protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
        if (paused || in.readableBytes() < 4) {
            return;
        }
        int size = in.getInt(in.readerIndex());
        if (size < 0) {
            throw discard(in, "bad_length", "frame size " + size + " is negative");
        }
        if (size > maxFrameSize) {
            throw discard(
                    in, "frame_too_large", "frame size " + size + " exceeds the limit of " + maxFrameSize + " bytes");
        }
        if (in.readableBytes() - 4 < size) {
            return;
        }
        out.add(in.readRetainedSlice(4 + size));
    }

    /** Drops what is buffered: after a framing error nothing later in the stream can be trusted. */
    private static MalformedFrameException discard(ByteBuf in, String reason, String message) {
        in.skipBytes(in.readableBytes());
        return new MalformedFrameException(reason, message);
    }
}
