package io.sluice.admission;

import java.time.Duration;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The {@link Signal#EVENT_LOOP_LAG} source: how late event loops run a periodic task. The proxy
 * {@link #register registers} a {@link Probe} per event loop and schedules, on that loop, a task
 * with a fixed delay of {@link #probePeriod()} that calls {@link Probe#tick} with
 * {@link System#nanoTime()}. Each tick's lag is the time since the previous tick minus the period.
 *
 * <p>A read gives, in milliseconds, the worst lag of any loop since the previous read, counting a
 * tick that is overdue right now as lag too, so a loop stuck in a long task shows up while it is
 * stuck rather than after. Unknown (NaN) while no loop is registered.
 */
public final class EventLoopLag implements SignalSource {

    /** Often enough to see a 200 ms stall, rarely enough to cost nothing measurable. */
    public static final Duration DEFAULT_PROBE_PERIOD = Duration.ofMillis(100);

    private final long periodNanos;
    private final CopyOnWriteArrayList<Probe> probes = new CopyOnWriteArrayList<>();

    /** Probes ticking every {@link #DEFAULT_PROBE_PERIOD}. */
    public EventLoopLag() {
        this(DEFAULT_PROBE_PERIOD);
    }

    /** @param probePeriod the fixed delay of every loop's probe task */
    public EventLoopLag(Duration probePeriod) {
        if (probePeriod.isNegative() || probePeriod.isZero()) {
            throw new IllegalArgumentException("probePeriod must be positive, got " + probePeriod);
        }
        this.periodNanos = probePeriod.toNanos();
    }

    /** The delay the proxy must schedule each probe's task with. */
    public Duration probePeriod() {
        return Duration.ofNanos(periodNanos);
    }

    /**
     * A probe for one event loop, whose first tick is due one period after {@code nowNanos}.
     * {@link Probe#close() Close} it when the loop shuts down.
     */
    public Probe register(long nowNanos) {
        Probe probe = new Probe(nowNanos);
        probes.add(probe);
        return probe;
    }

    @Override
    public double read(long nowNanos) {
        if (probes.isEmpty()) {
            return Double.NaN;
        }
        long worst = 0;
        for (Probe probe : probes) {
            worst = Math.max(worst, probe.takeLag(nowNanos));
        }
        return worst / 1e6;
    }

    /** One event loop's lag recorder: ticked by that loop alone, read by the sampler. */
    public final class Probe implements AutoCloseable {

        private volatile long lastTickNanos;
        private final AtomicLong worstLagNanos = new AtomicLong();

        private Probe(long nowNanos) {
            this.lastTickNanos = nowNanos;
        }

        /** Called by the probe's task on its event loop: records how late this run is. Allocation-free. */
        public void tick(long nowNanos) {
            long lag = nowNanos - lastTickNanos - periodNanos;
            lastTickNanos = nowNanos;
            if (lag > 0) {
                worstLagNanos.accumulateAndGet(lag, Math::max);
            }
        }

        /** The worst lag since the previous call, or the current tick's overdue time if that is worse. */
        private long takeLag(long nowNanos) {
            long overdue = nowNanos - lastTickNanos - periodNanos;
            return Math.max(worstLagNanos.getAndSet(0), overdue);
        }

        /** Stops counting this probe's loop. */
        @Override
        public void close() {
            probes.remove(this);
        }
    }
}
