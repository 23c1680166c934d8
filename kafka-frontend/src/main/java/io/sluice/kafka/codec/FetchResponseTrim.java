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

    private FetchResponseTrim() {}

    /**
     * A new response where each partition of {@code parts} (read from the response just read) keeps
     * of its records what {@code kept} says. The caller owns the new frame; the original stays its
     * owner's, and the new one holds references to its bytes.
     */
    public static ByteBuf trim(ByteBufAllocator alloc, PartitionRecords parts, RecordsKept kept) {
        if (kept.partitions() != parts.partitionCount()) {
            throw new IllegalArgumentException(
                    "kept " + kept.partitions() + " partitions of a response of " + parts.partitionCount());
        }
        int trimmed = 0;
        for (int p = 0; p < parts.partitionCount(); p++) {
            if (isTrimmed(parts, kept, p)) {
                trimmed++;
            }
        }
        FrameSplice splice = new FrameSplice(alloc, parts.buffer(), trimmed);
        try {
            int from = parts.frameIndex() + 4;
            for (int p = 0; p < parts.partitionCount(); p++) {
                if (!isTrimmed(parts, kept, p)) {
                    continue;
                }
                int start = parts.recordsStart(p);
                splice.copy(from, parts.recordsLengthIndex(p))
                        .length(kept.length(p), parts.compactRecords())
                        .copy(start, start + kept.length(p));
                from = start + parts.recordsLength(p);
            }
            splice.copy(from, parts.frameEnd());
            return splice.finish();
        } catch (RuntimeException e) {
            splice.abandon();
            throw e;
        }
    }

    private static boolean isTrimmed(PartitionRecords parts, RecordsKept keptOf, int p) {
        if (!keptOf.isCut(p)) {
            return false;
        }
        int kept = keptOf.length(p);
        if (kept == parts.recordsLength(p)) {
            return false;
        }
        if (kept < 0 || kept > parts.recordsLength(p)) {
            throw new IllegalArgumentException(
                    "partition " + p + " cannot keep " + kept + " of " + parts.recordsLength(p) + " bytes");
        }
        return true;
    }
}
