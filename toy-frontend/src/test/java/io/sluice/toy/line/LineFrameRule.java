package io.sluice.toy.line;

import io.netty.buffer.ByteBuf;
import io.sluice.relay.MalformedFrameException;
import io.sluice.relay.connection.FrameRule;

/** A frame is one line, its {@code \n} included; one longer than the limit closes the connection. */
final class LineFrameRule implements FrameRule {

    @Override
    public int frameLength(ByteBuf in, int maxFrameSize) {
        int start = in.readerIndex();
        int end = in.indexOf(start, start + Math.min(in.readableBytes(), maxFrameSize + 1), (byte) '\n');
        if (end >= 0) {
            return end - start + 1;
        }
        if (in.readableBytes() > maxFrameSize) {
            throw new MalformedFrameException("frame_too_large", "a line longer than " + maxFrameSize + " bytes");
        }
        return -1;
    }
}
