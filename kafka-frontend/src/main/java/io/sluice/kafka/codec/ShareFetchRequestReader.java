package io.sluice.kafka.codec;

import io.sluice.relay.FrameView;

import java.util.Arrays;

/**
 * Reads a ShareFetch request (v1, v2) in place: its share session epoch, how long the broker may
 * hold it, how many bytes and records it asks for at most (and where those two fields are, to be
 * lowered in place), and the topic ids it adds to or forgets from its share session. One instance
 * per connection, reused for every request; allocates only to grow its id arrays.
 */
public final class ShareFetchRequestReader {

    /** The share session epoch that opens a new session (and the one that closes it: -1). */
    public static final int NEW_SESSION = 0;

    public static final int FINAL_EPOCH = -1;

    private static final short ACQUIRE_MODE = 2;

    private int sessionEpoch;
    private int maxWaitMillis;
    private int maxBytes;
    private int maxRecords;
    private int maxBytesOffset;
    private int maxRecordsOffset;
    private long[] topicIds = new long[8];
    private int topics;
    private long[] forgottenIds = new long[8];
    private int forgotten;

    /**
     * Reads the ShareFetch request {@code frame} whose header {@code header} just read. A body that
     * does not fit the schema raises a {@link io.sluice.relay.MalformedFrameException} ({@code bad_share_fetch}).
     */
    public ShareFetchRequestReader read(FrameView frame, RequestHeader header, WireCursor cursor) {
        if (header.apiKey() != HandledApi.SHARE_FETCH.key().id
                || !HandledApi.SHARE_FETCH.supports(header.apiVersion())) {
            throw new IllegalArgumentException(
                    "not a ShareFetch request Sluice handles: API key " + header.apiKey() + " v" + header.apiVersion());
        }
        cursor.reset(frame, header.bodyIndex(), "bad_share_fetch");
        cursor.skipSized(cursor.compactLength()); // group_id
        cursor.skipSized(cursor.compactLength()); // member_id
        sessionEpoch = cursor.int32();
        maxWaitMillis = cursor.int32();
        cursor.int32(); // min_bytes
        maxBytesOffset = cursor.index() - frame.index();
        maxBytes = cursor.int32();
        maxRecordsOffset = cursor.index() - frame.index();
        maxRecords = cursor.int32();
        cursor.int32(); // batch_size
        if (header.apiVersion() >= ACQUIRE_MODE) {
            cursor.skip(2); // share_acquire_mode, is_renew_ack
        }
        topics = 0;
        int topicCount = length(cursor);
        for (int t = 0; t < topicCount; t++) {
            topicIds = add(topicIds, topics++, cursor.int64(), cursor.int64());
            int partitions = length(cursor);
            for (int p = 0; p < partitions; p++) {
                cursor.int32(); // partition_index
                int batches = length(cursor);
                for (int b = 0; b < batches; b++) {
                    cursor.skip(16); // first_offset, last_offset
                    cursor.skipSized(length(cursor)); // acknowledge_types, one byte each
                    cursor.skipTaggedFields();
                }
                cursor.skipTaggedFields();
            }
            cursor.skipTaggedFields();
        }
        forgotten = 0;
        int forgottenCount = length(cursor);
        for (int t = 0; t < forgottenCount; t++) {
            forgottenIds = add(forgottenIds, forgotten++, cursor.int64(), cursor.int64());
            cursor.skip(Math.multiplyExact(Math.max(0, length(cursor)), Integer.BYTES));
            cursor.skipTaggedFields();
        }
        cursor.skipTaggedFields();
        return this;
    }

    /** A compact array's length; null (-1) reads as empty. */
    private static int length(WireCursor cursor) {
        int length = cursor.compactLength();
        if (length > cursor.remaining()) {
            throw cursor.malformed("array of " + length + " elements in " + cursor.remaining() + " bytes");
        }
        return Math.max(length, 0);
    }

    private static long[] add(long[] ids, int index, long msb, long lsb) {
        long[] grown = ids.length < 2 * index + 2 ? Arrays.copyOf(ids, ids.length * 2) : ids;
        grown[2 * index] = msb;
        grown[2 * index + 1] = lsb;
        return grown;
    }

    /**
     * Writes {@code value} into the int32 field at {@code offset} ({@link #maxBytesOffset} or
     * {@link #maxRecordsOffset}) of {@code frame}: the request read, or a slice of it of its own.
     */
    public static void setField(FrameView frame, int offset, int value) {
        frame.buffer().setInt(frame.index() + offset, value);
    }

    public int sessionEpoch() {
        return sessionEpoch;
    }

    public int maxWaitMillis() {
        return maxWaitMillis;
    }

    public int maxBytes() {
        return maxBytes;
    }

    public int maxRecords() {
        return maxRecords;
    }

    /** Where {@code max_bytes} is, from the frame's first byte. */
    public int maxBytesOffset() {
        return maxBytesOffset;
    }

    /** Where {@code max_records} is, from the frame's first byte. */
    public int maxRecordsOffset() {
        return maxRecordsOffset;
    }

    /** Topics the request names (to add to its session or acknowledge in it). */
    public int topicCount() {
        return topics;
    }

    public long topicIdMsb(int t) {
        return topicIds[2 * t];
    }

    public long topicIdLsb(int t) {
        return topicIds[2 * t + 1];
    }

    /** Topics the request takes out of its session. */
    public int forgottenCount() {
        return forgotten;
    }

    public long forgottenIdMsb(int t) {
        return forgottenIds[2 * t];
    }

    public long forgottenIdLsb(int t) {
        return forgottenIds[2 * t + 1];
    }
}
