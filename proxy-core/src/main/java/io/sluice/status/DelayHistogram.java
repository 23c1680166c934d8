package io.sluice.status;

import java.util.concurrent.atomic.DoubleAdder;
import java.util.concurrent.atomic.LongAdder;

/**
 * How long held sends waited before release, in fixed buckets (seconds) that suit both a
 * millisecond pacing delay and a minute-long backlog. Lock-free.
 */
public final class DelayHistogram {

    /** Upper bounds in seconds; a last, implicit bucket is +Inf. */
    public static final double[] BOUNDS = {0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60};

    private final LongAdder[] counts = new LongAdder[BOUNDS.length + 1];
    private final DoubleAdder sumSeconds = new DoubleAdder();

    DelayHistogram() {
        for (int i = 0; i < counts.length; i++) {
            counts[i] = new LongAdder();
        }
    }

    void observe(long nanos) {
        double seconds = nanos / 1e9;
        int i = 0;
        while (i < BOUNDS.length && seconds > BOUNDS[i]) {
            i++;
        }
        counts[i].increment();
        sumSeconds.add(seconds);
    }

    /** Observations per bucket (not cumulative); index {@code BOUNDS.length} is the +Inf bucket. */
    public long[] counts() {
        long[] out = new long[counts.length];
        for (int i = 0; i < counts.length; i++) {
            out[i] = counts[i].sum();
        }
        return out;
    }

    public double sumSeconds() {
        return sumSeconds.sum();
    }
}
