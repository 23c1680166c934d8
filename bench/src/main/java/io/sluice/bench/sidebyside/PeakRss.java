package io.sluice.bench.sidebyside;

import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The highest resident memory a process reaches while this samples it, every 250 ms from
 * {@link #sample} to {@link #close}: a reading at the end of a run misses a peak in the middle.
 */
final class PeakRss implements AutoCloseable {

    private static final long INTERVAL_MILLIS = 250;

    private final long pid;
    private final AtomicLong peakBytes = new AtomicLong();
    private final ScheduledExecutorService sampler = Executors.newSingleThreadScheduledExecutor(runnable -> {
        Thread thread = new Thread(runnable, "peak-rss");
        thread.setDaemon(true);
        return thread;
    });

    private PeakRss(long pid) {
        this.pid = pid;
    }

    /** Starts sampling {@code pid}. */
    static PeakRss sample(long pid) {
        PeakRss peak = new PeakRss(pid);
        peak.sampleOnce();
        peak.sampler.scheduleAtFixedRate(peak::sampleOnce, INTERVAL_MILLIS, INTERVAL_MILLIS, TimeUnit.MILLISECONDS);
        return peak;
    }

    private void sampleOnce() {
        peakBytes.accumulateAndGet(ProcessCost.of(pid).rssBytes(), Math::max);
    }

    /** The highest RSS seen so far, in bytes. */
    long peakBytes() {
        return peakBytes.get();
    }

    @Override
    public void close() {
        sampler.shutdownNow();
        sampleOnce();
    }
}
