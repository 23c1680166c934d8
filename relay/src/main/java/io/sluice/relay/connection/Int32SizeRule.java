package io.sluice.relay.connection;

import io.netty.buffer.ByteBuf;
import io.sluice.relay.MalformedFrameException;

/** {@link FrameRule#INT32_SIZE}: {@code [size int32][size bytes]}. */
final class Int32SizeRule implements FrameRule {

    @Override
    public int frameLength(ByteBuf in, int maxFrameSize) {
        if (in.readableBytes() < 4) {
            return -1;
        }
        int size = in.getInt(in.readerIndex());
        if (size < 0) {
            throw new MalformedFrameException("bad_length", "frame size " + size + " is negative");
        }
        if (size > maxFrameSize) {
            throw new MalformedFrameException(
                    "frame_too_large", "frame size " + size + " exceeds the limit of " + maxFrameSize + " bytes");
        }
        return 4 + size;
    }
}
