package io.sluice.kafka.codec;

import io.sluice.relay.FrameView;

/**
 * Reads fields of a Produce request body in place. From v3 the body starts with
 * {@code transactional_id} (a nullable string, compact from v9), {@code acks} and {@code timeout_ms}.
 */
public final class ProduceRequestReader {

    private ProduceRequestReader() {}

    /**
     * The {@code acks} of the Produce request {@code frame} whose header {@code header} just read.
     * {@code acks=0} asks the broker for no response at all.
     */
    public static short acks(FrameView frame, RequestHeader header, WireCursor cursor) {
        if (header.apiKey() != HandledApi.PRODUCE.key().id) {
            throw new IllegalArgumentException("not a Produce request: API key " + header.apiKey());
        }
        cursor.reset(frame, header.bodyIndex(), "bad_produce");
        if (header.apiVersion() >= 9) {
            cursor.skipSized(cursor.compactLength());
        } else {
            cursor.skipSized(cursor.int16());
        }
        return cursor.int16();
    }

    /**
     * The {@code timeout_ms} of the Produce request {@code frame}, which follows {@code acks}: how
     * long the client lets the broker take, and so Sluice, before it answers.
     */
    public static int timeoutMillis(FrameView frame, RequestHeader header, WireCursor cursor) {
        acks(frame, header, cursor);
        return cursor.int32();
    }
}
