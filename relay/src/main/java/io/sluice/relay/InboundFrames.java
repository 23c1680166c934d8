package io.sluice.relay;

import io.netty.buffer.ByteBuf;

import java.util.function.Function;

/**
 * The one rule for a frame taken out of the pipeline and read before it is passed on: whoever
 * took it owns it, so when reading it fails (a malformed frame) the reader releases it before the
 * exception travels on to close the connection. After a successful read, ownership goes on as
 * the caller decides (forward, hold, release).
 */
public final class InboundFrames {

    private InboundFrames() {}

    /** Reads a value from {@code frame}; releases {@code frame} and rethrows if that fails. */
    public static <T> T readOrRelease(ByteBuf frame, Function<ByteBuf, T> reader) {
        try {
            return reader.apply(frame);
        } catch (RuntimeException e) {
            frame.release();
            throw e;
        }
    }
}
