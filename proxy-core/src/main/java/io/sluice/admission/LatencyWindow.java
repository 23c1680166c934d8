package io.sluice.admission;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * The {@link Signal#UPSTREAM_LATENCY_P99} source: upstream SEND to SEND_RECEIPT times recorded by
 * many event loops at once, read as a quantile over a sliding window.
 *
 * <p>The window is a ring of time slots (by default forty of 250 ms); each slot is a histogram
 * of log-linear buckets over microseconds, 32 per power of two, so a quantile is within 1.6 % of
 * the true value for anything from 1 microsecond to 19 hours (longer times count as 19 hours).
 * Recording is one atomic add into preallocated arrays: no locks, no allocation. A slot is
 * recycled by the first record that lands in it after its time has passed; a record racing that
 * recycling may be dropped, which a p99 over thousands of records does not notice. Memory is fixed
 * at 8 KiB per slot.
 *
 * <p>A read covers the current, partly filled slot and the slots before it, so the last 9.75 to 10
 * seconds with the defaults.
 */
public final class LatencyWindow implements SignalSource {

    public static final Duration DEFAULT_WINDOW = Duration.ofSeconds(10);
    /** Slots of 250 ms, so that a reading of the last second and a slot (adaptive limits) spans 1 to 1.25 s. */
    public static final int DEFAULT_SLOTS = 40;

    /** Buckets per power of two, as a bit count: 2^5 = 32 gives 1/64 = 1.6 % worst relative error. */
    private static final int SUB_BUCKET_BITS = 5;

    private static final int SUB_BUCKETS = 1 << SUB_BUCKET_BITS;
    /** Just under 2^36 microseconds, about 19 hours: the largest time told apart. */
    private static final long MAX_MICROS = (1L << 36) - 1;

    private static final int BUCKETS = bucket(MAX_MICROS) + 1;
    /** An epoch no real slot index reaches: the slot is being cleared. */
    private static final long RECYCLING = Long.MIN_VALUE;

    private static final long NEVER_USED = Long.MIN_VALUE + 1;

    private final long slotNanos;
    private final Slot[] slots;

    /** A window of {@link #DEFAULT_WINDOW} in {@link #DEFAULT_SLOTS} slots. */
    public LatencyWindow() {
        this(DEFAULT_WINDOW, DEFAULT_SLOTS);
    }

    /**
     * @param window how far back a read looks
     * @param slotCount how many slots the window slides by; more is smoother, costs 8 KiB each
     */
    public LatencyWindow(Duration window, int slotCount) {
        if (slotCount < 2 || slotCount > 600) {
            throw new IllegalArgumentException("slotCount must be 2 to 600, got " + slotCount);
        }
        long slotLength = window.toNanos() / slotCount;
        if (slotLength < 1_000_000) {
            throw new IllegalArgumentException(
                    "window / slotCount must be at least 1 ms, got " + window + " / " + slotCount);
        }
        this.slotNanos = slotLength;
        this.slots = new Slot[slotCount];
        for (int i = 0; i < slotCount; i++) {
            slots[i] = new Slot();
        }
    }

    /**
     * Records one upstream round trip. Callable from any thread; allocation-free.
     *
     * @param latencyNanos the time from forwarding a SEND to receiving its SEND_RECEIPT
     * @param nowNanos the time it was measured, on the {@link System#nanoTime()} scale
     */
    public void record(long latencyNanos, long nowNanos) {
        long index = Math.floorDiv(nowNanos, slotNanos);
        Slot slot = slots[(int) Math.floorMod(index, (long) slots.length)];
        long epoch = slot.epoch.get();
        if (epoch != index) {
            // A slot ahead of us means this record is already outside the window.
            if (epoch == RECYCLING || epoch > index || !slot.epoch.compareAndSet(epoch, RECYCLING)) {
                return;
            }
            for (int i = 0; i < BUCKETS; i++) {
                slot.counts.set(i, 0);
            }
            slot.epoch.set(index);
        }
        long micros = Math.min(MAX_MICROS, Math.max(0, latencyNanos / 1000));
        slot.counts.getAndIncrement(bucket(micros));
    }

    /**
     * The {@code quantile} of the round trips in the window, in nanoseconds, or -1 if there are none.
     *
     * @param quantile from 0 to 1, e.g. 0.99
     */
    public long quantileNanos(double quantile, long nowNanos) {
        return quantileNanos(quantile, nowNanos, slots.length);
    }

    /**
     * The {@code quantile} of the round trips in the newest {@code slotCount} slots only (the
     * current, partly filled one and those just before it), in nanoseconds, or -1 if there are none:
     * a reading of the last second or two for a controller that acts every second.
     */
    public long quantileNanos(double quantile, long nowNanos, int slotCount) {
        if (!(quantile >= 0 && quantile <= 1)) {
            throw new IllegalArgumentException("quantile must be 0 to 1, got " + quantile);
        }
        long[] counts = new long[BUCKETS];
        long total = gather(counts, nowNanos, Math.min(slotCount, slots.length));
        if (total == 0) {
            return -1;
        }
        long rank = Math.max(1, (long) Math.ceil(quantile * total));
        long seen = 0;
        for (int i = 0; i < BUCKETS; i++) {
            seen += counts[i];
            if (seen >= rank) {
                return middleMicros(i) * 1000;
            }
        }
        return middleMicros(BUCKETS - 1) * 1000;
    }

    /** How long one slot covers, in nanoseconds. */
    public long slotNanos() {
        return slotNanos;
    }

    /** How many round trips the window holds. */
    public long count(long nowNanos) {
        return gather(new long[BUCKETS], nowNanos, slots.length);
    }

    /** The p99 in milliseconds, or NaN when the window is empty. */
    @Override
    public double read(long nowNanos) {
        long p99 = quantileNanos(0.99, nowNanos);
        return p99 < 0 ? Double.NaN : p99 / 1e6;
    }

    /** Adds the counts of the newest {@code slotCount} slots into {@code counts}; returns their total. */
    private long gather(long[] counts, long nowNanos, int slotCount) {
        long newest = Math.floorDiv(nowNanos, slotNanos);
        long total = 0;
        for (Slot slot : slots) {
            long epoch = slot.epoch.get();
            if (epoch > newest - slotCount && epoch <= newest) {
                for (int i = 0; i < BUCKETS; i++) {
                    long count = slot.counts.get(i);
                    counts[i] += count;
                    total += count;
                }
            }
        }
        return total;
    }

    /**
     * The bucket of a time in microseconds: below 64 one bucket per microsecond, above that 32
     * buckets per power of two, each {@code 2^shift} wide.
     */
    static int bucket(long micros) {
        int shift = Math.max(0, 63 - Long.numberOfLeadingZeros(micros) - SUB_BUCKET_BITS);
        return (int) ((long) SUB_BUCKETS * shift + (micros >>> shift));
    }

    /** The middle of a bucket, which is off by at most half a bucket's width. */
    static long middleMicros(int bucket) {
        int shift = Math.max(0, (bucket >> SUB_BUCKET_BITS) - 1);
        long lowest = (long) (bucket - SUB_BUCKETS * shift) << shift;
        return lowest + ((1L << shift) >> 1);
    }

    /** One time slot: the slot index it holds (time / slot length) and its histogram. */
    private static final class Slot {
        final AtomicLong epoch = new AtomicLong(NEVER_USED);
        final AtomicLongArray counts = new AtomicLongArray(BUCKETS);
    }
}
