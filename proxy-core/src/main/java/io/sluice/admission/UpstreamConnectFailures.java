package io.sluice.admission;

import java.util.concurrent.atomic.LongAdder;

/**
 * The {@link Signal#UPSTREAM_CONNECT_FAILURES} source: failed connection attempts to the upstream
 * broker, counted by the proxy from any thread and handed to the sampler as the count since its
 * previous read.
 */
public final class UpstreamConnectFailures implements SignalSource {

    private final LongAdder failures = new LongAdder();

    /** Counts one failed upstream connection attempt. Cheap, lock-free, callable from any event loop. */
    public void record() {
        failures.increment();
    }

    /** The failures since the previous read; resets the count. */
    @Override
    public double read(long nowNanos) {
        return failures.sumThenReset();
    }
}
