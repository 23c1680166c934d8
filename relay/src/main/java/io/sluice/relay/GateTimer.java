package io.sluice.relay;

import io.netty.util.concurrent.EventExecutor;
import io.netty.util.concurrent.ScheduledFuture;

import java.util.concurrent.TimeUnit;

/**
 * The one timer of a gated producer or consumer: runs its task on the connection's event loop
 * when its quota may admit again. At most one run is pending; the wait is clamped so that a tiny
 * wait does not spin and a long one still wakes up to see changed limits.
 *
 * <p>Confined to the event loop it was made with.
 */
public final class GateTimer {

    /** Shortest wait: below this the timer would fire before the bucket moved. */
    public static final long MIN_WAIT_NANOS = 1_000;

    private final EventExecutor loop;
    private final long minWaitNanos;
    private final long maxWaitNanos;
    private final Runnable task;
    private ScheduledFuture<?> pending;

    /**
     * @param loop         the connection's event loop
     * @param maxWaitNanos longest wait before the task looks again (picks up limit changes)
     * @param task         what to run when the timer fires
     */
    public GateTimer(EventExecutor loop, long maxWaitNanos, Runnable task) {
        this(loop, MIN_WAIT_NANOS, maxWaitNanos, task);
    }

    /**
     * @param minWaitNanos shortest wait: a timer that wakes at most this often releases what
     *                     fell due in between in one run, with one flush
     */
    public GateTimer(EventExecutor loop, long minWaitNanos, long maxWaitNanos, Runnable task) {
        this.loop = loop;
        this.minWaitNanos = Math.max(MIN_WAIT_NANOS, minWaitNanos);
        this.maxWaitNanos = maxWaitNanos;
        this.task = task;
    }

    /** Runs the task after {@code waitNanos} (clamped), unless a run is already pending. */
    public void schedule(long waitNanos) {
        if (pending != null) {
            return;
        }
        long wait = Math.max(minWaitNanos, Math.min(waitNanos, maxWaitNanos));
        pending = loop.schedule(this::fire, wait, TimeUnit.NANOSECONDS);
    }

    /** Whether a run is pending. */
    public boolean isScheduled() {
        return pending != null;
    }

    /** Drops the pending run, if any. */
    public void cancel() {
        if (pending != null) {
            pending.cancel(false);
            pending = null;
        }
    }

    private void fire() {
        pending = null;
        task.run();
    }
}
