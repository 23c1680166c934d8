package io.sluice.kafka.codec;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;

/**
 * A Fetch response with the records of some partitions cut short at a batch boundary: everything
 * else (errors, watermarks, aborted transactions, session, node endpoints) is kept as the broker
 * wrote it. Kept bytes are retained slices of the original; only the size prefix and the new
 * records lengths are written anew. A consumer takes the batches it gets and asks again from the
 * first offset it did not get.
 */
public final class FetchResponseTrim {

    /** In {@code keptLengths}: leave the partition's records as they are. */
    public static final int UNCHANGED = -1;

    private FetchResponseTrim() {}

    /**
     * A new response where partition {@code p} of {@code parts} (read from the response just read)
     * keeps the first {@code keptLengths[p]} bytes of its records, or all of them for
     * {@link #UNCHANGED}. The caller owns the new frame; the original stays its owner's, and the new
     * one holds references to its bytes.
     */
    public static ByteBuf trim(ByteBufAllocator alloc, PartitionRecords parts, int[] keptLengths) {
        int trimmed = 0;
        for (int p = 0; p < parts.partitionCount(); p++) {
            if (isTrimmed(parts, keptLengths[p], p)) {
                trimmed++;
            }
        }
        FrameSplice splice = new FrameSplice(alloc, parts.buffer(), trimmed);
        try {
            int from = parts.frameIndex() + 4;
            for (int p = 0; p < parts.partitionCount(); p++) {
                if (!isTrimmed(parts, keptLengths[p], p)) {
                    continue;
                }
                int start = parts.recordsStart(p);
                splice.copy(from, parts.recordsLengthIndex(p))
                        .length(keptLengths[p], parts.compactRecords())
                        .copy(start, start + keptLengths[p]);
                from = start + parts.recordsLength(p);
            }
            splice.copy(from, parts.frameEnd());
            return splice.finish();
        } catch (RuntimeException e) {
            splice.abandon();
            throw e;
        }
    }

    private static boolean isTrimmed(PartitionRecords parts, int kept, int p) {
        if (kept == UNCHANGED || kept == parts.recordsLength(p)) {
            return false;
        }
        if (kept < 0 || kept > parts.recordsLength(p)) {
            throw new IllegalArgumentException(
                    "partition " + p + " cannot keep " + kept + " of " + parts.recordsLength(p) + " bytes");
        }
        return true;
    }
}
