package io.sluice.kafka.codec;

import io.netty.buffer.ByteBuf;

/**
 * Reads record batches in place from their headers, never their records: how many records and
 * bytes a partition's records hold, where each batch ends, and the producer fields of the first.
 * Nothing is decompressed or copied.
 *
 * <p>A batch starts with {@code baseOffset int64} and {@code batchLength int32} (the bytes after
 * these 12). A magic 2 batch's header is 61 bytes: after the length come partitionLeaderEpoch,
 * magic, crc, attributes, lastOffsetDelta, two timestamps, producerId int64 (offset 43),
 * producerEpoch int16 (51), baseSequence int32 (53) and recordCount int32 (57). An entry of the old
 * formats (magic 0 and 1, which Kafka 4 brokers no longer write) counts as one record. A batch
 * that runs past the end (a fetch may end with part of one) is not a batch: it is counted in
 * {@link #bytes()} only.
 *
 * <p>One instance is reused for every partition of a connection, on its event loop.
 */
public final class RecordBatches {

    /** baseOffset and batchLength: the bytes before the part {@code batchLength} counts. */
    public static final int LOG_OVERHEAD = 12;
    /** The header of a magic 2 batch. */
    public static final int V2_HEADER = 61;

    /**
     * The fewest bytes a record of a magic 2 batch takes: its length, attributes, timestamp delta,
     * offset delta, key length, value length and header count, each at least one byte.
     */
    public static final int SMALLEST_RECORD = 7;

    private static final int MAGIC = 16;
    private static final int ATTRIBUTES = 21;
    /** The compression codec's bits of a batch's attributes; 0 for none. */
    private static final int COMPRESSION_BITS = 0x07;

    private static final int PRODUCER_ID = 43;
    private static final int PRODUCER_EPOCH = 51;
    private static final int BASE_SEQUENCE = 53;
    private static final int RECORD_COUNT = 57;

    private int batches;
    private long records;
    private long bytes;
    private long completeBytes;
    private long producerId;
    private short producerEpoch;
    private int baseSequence;
    private int overclaimingCount = -1;

    /** Counts the batches of {@code buf[start, start + length)}; a negative length (null records) counts none. */
    public RecordBatches count(ByteBuf buf, int start, int length) {
        batches = 0;
        records = 0;
        bytes = Math.max(length, 0);
        completeBytes = 0;
        producerId = -1;
        producerEpoch = -1;
        baseSequence = -1;
        overclaimingCount = -1;
        int end = start + (int) bytes;
        int index = start;
        int size;
        while ((size = batchSize(buf, index, end)) > 0) {
            if (batches == 0 && buf.getByte(index + MAGIC) >= 2) {
                producerId = buf.getLong(index + PRODUCER_ID);
                producerEpoch = buf.getShort(index + PRODUCER_EPOCH);
                baseSequence = buf.getInt(index + BASE_SEQUENCE);
            }
            batches++;
            int count = recordCount(buf, index);
            if (overclaimingCount < 0 && overclaims(buf, index, size, count)) {
                overclaimingCount = count;
            }
            records += count;
            completeBytes += size;
            index += size;
        }
        return this;
    }

    /**
     * The size of the batch at {@code index} (its 12 leading bytes included), or 0 when no whole
     * batch lies in {@code buf[index, end)}: too few bytes for its header, or a length that runs past
     * {@code end} or is too small for the header its magic calls for.
     */
    public static int batchSize(ByteBuf buf, int index, int end) {
        if (end - index < LOG_OVERHEAD + 5) {
            return 0;
        }
        int batchLength = buf.getInt(index + 8);
        byte magic = buf.getByte(index + MAGIC);
        int smallest = magic >= 2 ? V2_HEADER - LOG_OVERHEAD : MAGIC - LOG_OVERHEAD + 1;
        if (batchLength < smallest || batchLength > end - index - LOG_OVERHEAD) {
            return 0;
        }
        return LOG_OVERHEAD + batchLength;
    }

    /** The records in the whole batch at {@code index}: its header's count (0 if negative), or 1 for an old-format entry. */
    public static int recordCount(ByteBuf buf, int index) {
        if (buf.getByte(index + MAGIC) < 2) {
            return 1;
        }
        return Math.max(0, buf.getInt(index + RECORD_COUNT));
    }

    /**
     * Whether an uncompressed magic 2 batch of {@code size} bytes at {@code index} claims more than
     * {@code count} records could fill. A compressed batch's records are bounded only by what they
     * decompress to, which Sluice does not read: the broker does, and refuses one that lies.
     */
    private static boolean overclaims(ByteBuf buf, int index, int size, int count) {
        return buf.getByte(index + MAGIC) >= 2
                && (buf.getShort(index + ATTRIBUTES) & COMPRESSION_BITS) == 0
                && count > (size - V2_HEADER) / SMALLEST_RECORD;
    }

    /**
     * The record count of the first counted batch that claims more records than its bytes can hold
     * (it is not a batch the broker would store); -1 when none does.
     */
    public int overclaimingCount() {
        return overclaimingCount;
    }

    /** Whole batches counted. */
    public int batches() {
        return batches;
    }

    /** Records in the whole batches. */
    public long records() {
        return records;
    }

    /** Every byte of the records, as the broker stores them and counts them: a trailing part of a batch included. */
    public long bytes() {
        return bytes;
    }

    /** Bytes of the whole batches alone. */
    public long completeBytes() {
        return completeBytes;
    }

    /**
     * Whether the first batch was written by an idempotent (or transactional) producer: it has a
     * producer id and a sequence number, and the broker checks that sequence numbers follow on.
     */
    public boolean idempotent() {
        return producerId >= 0 && baseSequence >= 0;
    }

    /** The first batch's producer id; -1 if it has none. */
    public long producerId() {
        return producerId;
    }

    /** The first batch's producer epoch; -1 if it has none. */
    public short producerEpoch() {
        return producerEpoch;
    }

    /** The first batch's base sequence; -1 if it has none. */
    public int baseSequence() {
        return baseSequence;
    }
}
