package io.sluice.kafka.codec;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;

import java.util.BitSet;

/**
 * A Produce request cut down to some of its partitions: the same header and fields (correlation
 * id, transactional id, acks, timeout), the topics that keep a partition and, of each, only the
 * partitions kept, in their order. Every kept byte is a retained slice of the original request,
 * records included; only the size prefix and the topic and partition counts are written anew.
 */
public final class ProduceRequestCut {

    private ProduceRequestCut() {}

    /**
     * A new request with the partitions of {@code parts} (read from the request just read) whose
     * numbers are set in {@code keep}; at least one must be. The caller owns the new frame; the
     * original stays its owner's (a lent frame: its decoder's), and the new one holds references
     * to its bytes.
     */
    public static ByteBuf keep(ByteBufAllocator alloc, PartitionRecords parts, BitSet keep) {
        if (keep.isEmpty()) {
            throw new IllegalArgumentException("a cut keeps at least one partition");
        }
        boolean compact = parts.compact();
        int keptTopics = 0;
        for (int t = 0; t < parts.topicCount(); t++) {
            if (keeps(parts, keep, t)) {
                keptTopics++;
            }
        }
        FrameSplice splice = new FrameSplice(alloc, parts.buffer(), 1 + keptTopics);
        try {
            splice.copy(parts.frameIndex() + 4, parts.topicsCountIndex).count(keptTopics, compact);
            for (int t = 0; t < parts.topicCount(); t++) {
                if (!keeps(parts, keep, t)) {
                    continue;
                }
                int first = parts.firstPartition(t);
                int end = parts.endPartition(t);
                splice.copy(parts.topicStart(t), parts.partitionsCountIndex(t)).count(kept(keep, first, end), compact);
                for (int p = keep.nextSetBit(first); p >= 0 && p < end; p = keep.nextSetBit(p + 1)) {
                    splice.copy(parts.partitionStart(p), parts.partitionEnd(p));
                }
                splice.copy(parts.partitionsEnd(t), parts.topicEnd(t));
            }
            splice.copy(parts.topicsEnd, parts.frameEnd());
            return splice.finish();
        } catch (RuntimeException e) {
            splice.abandon();
            throw e;
        }
    }

    private static boolean keeps(PartitionRecords parts, BitSet keep, int t) {
        return kept(keep, parts.firstPartition(t), parts.endPartition(t)) > 0;
    }

    private static int kept(BitSet keep, int from, int to) {
        int count = 0;
        for (int p = keep.nextSetBit(from); p >= 0 && p < to; p = keep.nextSetBit(p + 1)) {
            count++;
        }
        return count;
    }
}
