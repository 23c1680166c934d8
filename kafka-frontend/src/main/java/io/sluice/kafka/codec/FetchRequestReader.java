package io.sluice.kafka.codec;

import io.sluice.relay.FrameView;

/**
 * Reads fields of a Fetch request body in place. The body starts with {@code replica_id} up to
 * v14 (a consumer's is -1; from v15 it moved to a tagged field), then {@code max_wait_ms}.
 */
public final class FetchRequestReader {

    /** The first version without {@code replica_id} in front. */
    private static final short NO_REPLICA_ID = 15;

    private FetchRequestReader() {}

    /**
     * The {@code max_wait_ms} of the Fetch request {@code frame} whose header {@code header} just
     * read: how long the broker may hold it for data, which the client allows for in its timeout.
     */
    public static int maxWaitMillis(FrameView frame, RequestHeader header, WireCursor cursor) {
        if (header.apiKey() != HandledApi.FETCH.key().id) {
            throw new IllegalArgumentException("not a Fetch request: API key " + header.apiKey());
        }
        cursor.reset(frame, header.bodyIndex(), "bad_fetch");
        if (header.apiVersion() < NO_REPLICA_ID) {
            cursor.int32();
        }
        return cursor.int32();
    }
}
