package io.sluice.relay;

/**
 * One timer of a gate or a hold, on its connection's one timer ({@link WakeUps}): runs its task on
 * the connection's event loop once its wait is over. At most one run is pending; the wait is
 * clamped so that a tiny wait does not spin and a long one still wakes up to see changed limits.
 *
 * <p>Confined to the connection's event loop.
 */
public final class WakeUp {

    /** Shortest wait: below this the timer would fire before the bucket moved. */
    public static final long MIN_WAIT_NANOS = 1_000;

    private enum State {
        IDLE,
        ARMED,
        /** Found due by the running wake-up, its task not run yet. */
        FIRING
    }

    final Runnable task;
    /** When the pending run is due, on the connection's clock. */
    long dueAtNanos;
    /** Which arming of its connection's timer this run is, for the order of timers due at once. */
    long armedAs;

    private final WakeUps timers;
    private final long minWaitNanos;
    private final long maxWaitNanos;
    private State state = State.IDLE;

    WakeUp(WakeUps timers, long minWaitNanos, long maxWaitNanos, Runnable task) {
        this.timers = timers;
        this.minWaitNanos = Math.max(MIN_WAIT_NANOS, minWaitNanos);
        this.maxWaitNanos = maxWaitNanos;
        this.task = task;
    }

    /** Runs the task after {@code waitNanos} (clamped), unless a run is already pending. */
    public void schedule(long waitNanos) {
        if (state != State.IDLE) {
            return;
        }
        dueAtNanos = timers.nanoTime() + Math.max(minWaitNanos, Math.min(waitNanos, maxWaitNanos));
        state = State.ARMED;
        timers.arm(this);
    }

    /** Whether a run is pending. */
    public boolean isScheduled() {
        return state != State.IDLE;
    }

    /** Drops the pending run, if any. */
    public void cancel() {
        if (state == State.ARMED) {
            timers.disarm(this);
        }
        state = State.IDLE;
    }

    /** Its connection's timer closed: it no longer waits. */
    void cancelled() {
        state = State.IDLE;
    }

    void firing() {
        state = State.FIRING;
    }

    /** Whether the task is still to run (nothing cancelled it since it fell due); from now on it is not pending. */
    boolean takeRun() {
        if (state != State.FIRING) {
            return false;
        }
        state = State.IDLE;
        return true;
    }
}
