package io.sluice.kafka.codec;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.sluice.kafka.testing.KafkaFrames;
import org.apache.kafka.common.protocol.ApiMessage;

/**
 * Request frames for the codec's fuzz tests of whole-read requests: arbitrary body bytes behind a
 * header as a client writes it, and seeds made of a request's body after a byte that picks the API
 * and one that picks the version.
 */
final class FuzzFrames {

    private FuzzFrames() {}

    /**
     * A request frame of {@code empty}'s API and {@code version} with a header as a client writes it
     * and {@code body}; the caller owns it.
     */
    static ByteBuf request(ApiMessage empty, short version, byte[] body) {
        ByteBuf emptyFrame = KafkaFrames.request(empty, version, 7, "fuzz");
        try {
            int bodyIndex =
                    new RequestHeader().read(KafkaFrames.view(emptyFrame)).bodyIndex();
            int headerSize = bodyIndex - emptyFrame.readerIndex() - 4;
            ByteBuf frame = Unpooled.buffer(4 + headerSize + body.length);
            frame.writeInt(headerSize + body.length);
            frame.writeBytes(emptyFrame, emptyFrame.readerIndex() + 4, headerSize);
            frame.writeBytes(body);
            return frame;
        } finally {
            emptyFrame.release();
        }
    }

    /** The version from {@code min} to {@code max} that the fuzz input's byte {@code pick} picks. */
    static short version(short min, short max, byte pick) {
        return (short) (min + (pick & 0xff) % (max - min + 1));
    }

    /**
     * A seed: {@code api} (the fuzz test's index of it), {@code version} less the API's
     * {@code minVersion}, then the body of {@code message} written as {@code version}.
     */
    static byte[] seed(int api, short minVersion, short version, ApiMessage message) {
        ByteBuf frame = KafkaFrames.request(message, version, 7, "fuzz");
        try {
            int bodyIndex = new RequestHeader().read(KafkaFrames.view(frame)).bodyIndex();
            byte[] seed = new byte[2 + frame.writerIndex() - bodyIndex];
            seed[0] = (byte) api;
            seed[1] = (byte) (version - minVersion);
            frame.getBytes(bodyIndex, seed, 2, seed.length - 2);
            return seed;
        } finally {
            frame.release();
        }
    }
}
