package io.sluice.kafka.testing;

import java.nio.ByteBuffer;

/**
 * The inputs of the response fuzz test: the API key and version of the request a response answers
 * (two int16s), then the response frame, size prefix included.
 */
public final class ResponseFuzzInput {

    private ResponseFuzzInput() {}

    public static byte[] encode(short apiKey, short apiVersion, byte[] frame) {
        return ByteBuffer.allocate(4 + frame.length)
                .putShort(apiKey)
                .putShort(apiVersion)
                .put(frame)
                .array();
    }
}
