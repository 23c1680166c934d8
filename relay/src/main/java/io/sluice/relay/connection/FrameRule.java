package io.sluice.relay.connection;

import io.netty.buffer.ByteBuf;
import io.sluice.relay.MalformedFrameException;

/**
 * How one protocol's frames say how long they are: what a {@link FrameDecoder} reads at the start
 * of each frame. A rule checks the length prefix (and whatever else must be right before the body
 * is buffered) as soon as those bytes are in, so that a frame that cannot be valid closes the
 * connection before a single byte of its body is kept.
 *
 * <p>Called once a frame on the hot path: a rule allocates nothing and keeps no state, so one
 * instance serves every connection; the limit it checks against is the decoder's.
 */
public interface FrameRule {

    /**
     * A big-endian int32 size of the bytes that follow it, as Kafka's requests and responses have
     * one: a negative size is {@code bad_length}, one over the limit {@code frame_too_large}.
     */
    FrameRule INT32_SIZE = new Int32SizeRule();

    /**
     * The length of the frame at {@code in}'s reader index, length prefix included, once the bytes
     * that arrived tell it; -1 while they do not yet. Leaves {@code in}'s indexes alone.
     *
     * @param maxFrameSize the largest size the prefix may declare now (the prefix itself not counted)
     * @throws MalformedFrameException when the frame cannot be valid: the connection closes
     */
    int frameLength(ByteBuf in, int maxFrameSize);
}
