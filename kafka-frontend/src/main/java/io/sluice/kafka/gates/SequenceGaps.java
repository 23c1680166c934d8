package io.sluice.kafka.gates;

import io.netty.util.collection.IntObjectHashMap;
import io.netty.util.collection.IntObjectMap;

/**
 * The partitions of one topic where Sluice answered a batch of an idempotent producer instead of
 * forwarding it, and the sequence number the broker now waits for. Until a batch with that
 * sequence comes back (the client retrying it, or, after a rejection, the next batch renumbered),
 * every later batch of that producer and epoch must be bounced too: the broker would refuse it
 * with OUT_OF_ORDER_SEQUENCE_NUMBER, which the client answers with retries and epoch bumps. A
 * batch of a new epoch (the client reset its sequences) ends the gap, and so does time: a gap no
 * batch closes within {@link #EXPIRY_NANOS} is forgotten, long after any client gave up on it.
 *
 * <p>Sequence numbers wrap from {@code Integer.MAX_VALUE} to 0, as the broker's do. Confined to
 * the connection's event loop.
 */
final class SequenceGaps {

    /** Longer than a Java producer's default delivery timeout (two minutes) by far. */
    static final long EXPIRY_NANOS = 300_000_000_000L;

    /** How a batch stands to a partition's gap. */
    enum Standing {
        /** No gap applies: decide on the quota. */
        NONE,
        /** The batch the broker waits for: decide on the quota, and the gap closes if it goes through. */
        AWAITED,
        /** A later batch: it must be bounced. */
        BEHIND
    }

    /** A gap: who left it, the sequence it waits for, since when, and whether records were delayed by it. */
    private record Gap(long producerId, short epoch, int sequence, long sinceNanos, boolean delayed) {}

    private static final long SEQUENCES = 1L << 31;

    private final IntObjectMap<Gap> gaps = new IntObjectHashMap<>(4);

    /** How a batch of {@code partition} with these producer fields stands; drops a gap it ends. */
    Standing standing(int partition, long producerId, short epoch, int sequence, long nowNanos) {
        Gap gap = gaps.get(partition);
        if (gap == null || gap.producerId != producerId) {
            return Standing.NONE;
        }
        if (nowNanos - gap.sinceNanos > EXPIRY_NANOS) {
            gaps.remove(partition);
            return Standing.NONE;
        }
        if (gap.epoch != epoch) {
            return newEpoch(partition, gap, epoch, sequence);
        }
        if (sequence == gap.sequence) {
            return Standing.AWAITED;
        }
        long distance = Math.floorMod((long) sequence - gap.sequence, SEQUENCES);
        return distance < SEQUENCES / 2 ? Standing.BEHIND : Standing.NONE;
    }

    /**
     * A batch of another epoch than the gap's. Older: a batch the broker refuses anyway, no business
     * of the gap's. Newer: the client gave up on the gap's sequence and restarted the partition's
     * sequences at 0 under a new epoch; it may send a new batch before it resends the first ones,
     * and the broker refuses any but sequence 0 as a new epoch's first. So the gap now waits for
     * sequence 0 of the new epoch.
     */
    private Standing newEpoch(int partition, Gap gap, short epoch, int sequence) {
        if ((short) (epoch - gap.epoch) < 0) {
            return Standing.NONE;
        }
        if (sequence == 0) {
            gaps.remove(partition);
            return Standing.NONE;
        }
        gaps.put(partition, new Gap(gap.producerId, epoch, 0, gap.sinceNanos, false));
        return Standing.BEHIND;
    }

    /**
     * Batch {@code sequence} of {@code partition} was answered instead of forwarded; {@code delayed}
     * when the client will send the same records again. A gap that already waits for the same
     * records keeps its age.
     */
    void opened(int partition, long producerId, short epoch, int sequence, long nowNanos, boolean delayed) {
        Gap gap = gaps.get(partition);
        if (gap != null
                && gap.producerId == producerId
                && gap.epoch == epoch
                && gap.sequence == sequence
                && gap.delayed == delayed) {
            return;
        }
        gaps.put(partition, new Gap(producerId, epoch, sequence, nowNanos, delayed));
    }

    /**
     * The awaited batch of {@code partition} went through: closes the gap. Returns how long its
     * records were delayed, or -1 when the gap was not one of delayed records.
     */
    long closed(int partition, long nowNanos) {
        Gap gap = gaps.remove(partition);
        return gap == null || !gap.delayed ? -1 : nowNanos - gap.sinceNanos;
    }

    boolean isEmpty() {
        return gaps.isEmpty();
    }

    void clear() {
        gaps.clear();
    }
}
