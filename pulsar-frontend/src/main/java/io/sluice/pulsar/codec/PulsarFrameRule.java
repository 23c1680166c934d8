package io.sluice.pulsar.codec;

import io.netty.buffer.ByteBuf;
import io.sluice.relay.MalformedFrameException;
import io.sluice.relay.connection.FrameDecoder;
import io.sluice.relay.connection.FrameRule;

/**
 * How Pulsar frames say how long they are, {@code [totalSize u32][commandSize u32][command][payload]},
 * for the relay's {@link FrameDecoder}, which lends each whole frame (length prefix included): a
 * declared size under 4 or over the limit, or a command size that does not fit the frame, is a
 * {@link MalformedFrameException} as soon as its bytes are in. The limit is the broker's max
 * message size with room for the command and metadata ({@link #maxFrameSize}), from the broker's
 * CONNECTED on; before it a client's frames are kept to {@link #MAX_FRAME_BEFORE_CONNECTED}.
 */
public final class PulsarFrameRule implements FrameRule {

    /** What a broker allows by default (5 MiB) before it has told us its own figure. */
    public static final int DEFAULT_MAX_MESSAGE_SIZE = 5 * 1024 * 1024;

    /** Frames may exceed the max message size by the command and metadata; Pulsar allows 10 KiB. */
    public static final int FRAME_PADDING = 10 * 1024;

    /** The rule; it keeps no state, so every decoder shares it. */
    public static final PulsarFrameRule RULE = new PulsarFrameRule();

    /** The largest frame a broker that does not tell its own max message size takes. */
    public static final int DEFAULT_MAX_FRAME_SIZE = maxFrameSize(DEFAULT_MAX_MESSAGE_SIZE);

    /**
     * The largest frame a client may send before the broker's CONNECTED: CONNECT and the
     * authentication exchange, a token or a SASL round at most, never a message.
     */
    public static final int MAX_FRAME_BEFORE_CONNECTED = 64 * 1024;

    private PulsarFrameRule() {}

    /** The largest frame a broker whose {@code max_message_size} is {@code maxMessageSize} takes. */
    public static int maxFrameSize(int maxMessageSize) {
        if (maxMessageSize <= 0) {
            throw new IllegalArgumentException("maxMessageSize must be positive: " + maxMessageSize);
        }
        return (int) Math.min((long) maxMessageSize + FRAME_PADDING, Integer.MAX_VALUE - 4);
    }

    /** A decoder of Pulsar frames up to the default limit, for one channel. */
    public static FrameDecoder newDecoder() {
        return new FrameDecoder(RULE, DEFAULT_MAX_FRAME_SIZE);
    }

    @Override
    public int frameLength(ByteBuf in, int maxFrameSize) {
        if (in.readableBytes() < 4) {
            return -1;
        }
        int start = in.readerIndex();
        long totalSize = in.getUnsignedInt(start);
        if (totalSize < 4) {
            throw new MalformedFrameException(
                    "bad_length", "frame size " + totalSize + " is smaller than its command size field");
        }
        if (totalSize > maxFrameSize) {
            throw new MalformedFrameException(
                    "frame_too_large", "frame size " + totalSize + " exceeds the limit of " + maxFrameSize + " bytes");
        }
        if (in.readableBytes() >= 8) {
            long commandSize = in.getUnsignedInt(start + 4);
            if (commandSize == 0 || commandSize > totalSize - 4) {
                throw new MalformedFrameException(
                        "bad_length",
                        "command size " + commandSize + " does not fit a frame of " + totalSize + " bytes");
            }
        }
        return 4 + (int) totalSize;
    }
}
