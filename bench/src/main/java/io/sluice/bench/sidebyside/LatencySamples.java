package io.sluice.bench.sidebyside;

import java.util.Arrays;

/** Latencies in nanoseconds, recorded from any thread, read once recording is over. */
final class LatencySamples {

    private long[] nanos = new long[1 << 14];
    private int size;
    private boolean sorted;

    synchronized void add(long latencyNanos) {
        if (size == nanos.length) {
            nanos = Arrays.copyOf(nanos, size * 2);
        }
        nanos[size++] = latencyNanos;
        sorted = false;
    }

    synchronized int count() {
        return size;
    }

    /** The {@code q} quantile (0 to 1) in milliseconds, nearest rank; NaN when empty. */
    synchronized double percentileMillis(double q) {
        if (size == 0) {
            return Double.NaN;
        }
        sortOnce();
        int rank = (int) Math.ceil(q * size) - 1;
        return nanos[Math.max(0, Math.min(size - 1, rank))] / 1e6;
    }

    /**
     * At most {@code points} points of the distribution: latency in ms (x) against the share of
     * samples at or below it (y).
     */
    synchronized double[][] cdf(int points) {
        sortOnce();
        int n = Math.min(points, size);
        double[] x = new double[n];
        double[] y = new double[n];
        for (int i = 0; i < n; i++) {
            // Spaced evenly in log(1 - q) so that the tail, which is the interesting part, keeps its points.
            double q = 1 - Math.pow(10, -4.0 * (i + 1) / n);
            int rank = Math.min(size - 1, (int) Math.ceil(q * size) - 1);
            x[i] = nanos[Math.max(0, rank)] / 1e6;
            y[i] = (rank + 1.0) / size;
        }
        return new double[][] {x, y};
    }

    private void sortOnce() {
        if (!sorted) {
            Arrays.sort(nanos, 0, size);
            sorted = true;
        }
    }
}
