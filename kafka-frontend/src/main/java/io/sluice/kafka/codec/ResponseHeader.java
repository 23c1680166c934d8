package io.sluice.kafka.codec;

import io.sluice.relay.FrameView;
import io.sluice.relay.MalformedFrameException;
import org.apache.kafka.common.protocol.ApiKeys;

/**
 * The header of one response frame: {@code correlation_id int32}, then tagged fields in header v1.
 * Which header version a response uses follows from the API key and version of its request.
 */
public final class ResponseHeader {

    private ResponseHeader() {}

    /** The correlation id of a response {@code frame} (size prefix included), read in place. */
    public static int correlationId(FrameView frame) {
        if (frame.length() < 8) {
            throw new MalformedFrameException(
                    "bad_response_header", "response of " + frame.length() + " bytes has no correlation id");
        }
        return frame.buffer().getInt(frame.index() + 4);
    }

    /**
     * Where the body of a response {@code frame} to {@code apiKey} v{@code apiVersion} starts, as an
     * index into its buffer, using {@code cursor} to skip the header's tagged fields.
     */
    public static int bodyIndex(FrameView frame, short apiKey, short apiVersion, WireCursor cursor) {
        correlationId(frame);
        int afterCorrelationId = frame.index() + 8;
        if (ApiKeys.forId(apiKey).responseHeaderVersion(apiVersion) < 1) {
            return afterCorrelationId;
        }
        cursor.reset(frame, afterCorrelationId, "bad_response_header");
        cursor.skipTaggedFields();
        return cursor.index();
    }
}
