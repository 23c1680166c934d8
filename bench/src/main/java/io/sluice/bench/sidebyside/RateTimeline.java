package io.sluice.bench.sidebyside;

import java.util.concurrent.atomic.AtomicLongArray;

/** Completions counted per time slot since a start, to show an achieved rate over time. */
final class RateTimeline {

    private final long startNanos;
    private final long slotNanos;
    private final AtomicLongArray counts;

    RateTimeline(long startNanos, double slotSeconds, double maxSeconds) {
        this.startNanos = startNanos;
        this.slotNanos = (long) (slotSeconds * 1e9);
        this.counts = new AtomicLongArray((int) Math.ceil(maxSeconds / slotSeconds) + 1);
    }

    void record(long nowNanos) {
        int slot = (int) ((nowNanos - startNanos) / slotNanos);
        if (slot >= 0 && slot < counts.length()) {
            counts.incrementAndGet(slot);
        }
    }

    /** Completions per second between {@code fromSeconds} and {@code toSeconds} after the start. */
    double rate(double fromSeconds, double toSeconds) {
        int from = (int) Math.round(fromSeconds * 1e9 / slotNanos);
        int to = Math.min(counts.length(), (int) Math.round(toSeconds * 1e9 / slotNanos));
        long sum = 0;
        for (int i = from; i < to; i++) {
            sum += counts.get(i);
        }
        return sum / ((to - from) * slotNanos / 1e9);
    }

    /** Slot start times in seconds (x) and the rate in each slot in msg/s (y), up to {@code seconds}. */
    double[][] series(double seconds) {
        int n = Math.min(counts.length(), (int) Math.round(seconds * 1e9 / slotNanos));
        double[] x = new double[n];
        double[] y = new double[n];
        for (int i = 0; i < n; i++) {
            x[i] = i * slotNanos / 1e9;
            y[i] = counts.get(i) * 1e9 / slotNanos;
        }
        return new double[][] {x, y};
    }
}
