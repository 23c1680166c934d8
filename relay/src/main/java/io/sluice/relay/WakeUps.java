package io.sluice.relay;

import io.netty.util.concurrent.EventExecutor;
import io.netty.util.concurrent.ScheduledFuture;
import io.sluice.quota.NanoClock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.concurrent.TimeUnit;

/**
 * The one timer of a client connection: the timers of its gates and holds ({@link WakeUp}) share
 * one task scheduled on the connection's event loop, due at the earliest of theirs. When it fires
 * it runs every timer that is due, earliest first, and schedules itself again for the next, so a
 * connection with a hundred throttled producers keeps one task in its loop's queue, not a hundred.
 *
 * <p>Time is read from the clock the connection's quotas use, which follows the loop's own (the
 * system's nanosecond clock; a test's manual loop shares one with its engine).
 *
 * <p>Confined to the connection's event loop.
 */
public final class WakeUps {

    private static final Logger log = LoggerFactory.getLogger(WakeUps.class);
    /** By due time, and timers due at once in the order they were armed, as the event loop would run them. */
    private static final Comparator<WakeUp> EARLIEST_FIRST = (a, b) -> {
        int byTime = Long.compare(a.dueAtNanos - b.dueAtNanos, 0);
        return byTime != 0 ? byTime : Long.compare(a.armedAs, b.armedAs);
    };

    private final EventExecutor loop;
    private final NanoClock clock;
    private final Runnable fire = this::fire;
    /** Timers waiting for their time, in no order. */
    private final ArrayList<WakeUp> armed = new ArrayList<>();
    /** Timers the running wake-up found due. */
    private final ArrayList<WakeUp> due = new ArrayList<>();

    private ScheduledFuture<?> pending;
    private long pendingAtNanos;
    private boolean firing;
    private boolean closed;
    /** How many times a timer was armed: orders timers due at once. */
    private long armings;

    /**
     * @param loop  the connection's event loop
     * @param clock the connection's clock, on the loop's time scale
     */
    public WakeUps(EventExecutor loop, NanoClock clock) {
        this.loop = loop;
        this.clock = clock;
    }

    /** A timer that runs {@code task} after a wait clamped to [{@link WakeUp#MIN_WAIT_NANOS}, {@code maxWaitNanos}]. */
    public WakeUp timer(long maxWaitNanos, Runnable task) {
        return timer(WakeUp.MIN_WAIT_NANOS, maxWaitNanos, task);
    }

    /**
     * A timer that runs {@code task} after a wait clamped to [{@code minWaitNanos}, {@code maxWaitNanos}]:
     * a timer that wakes at most every {@code minWaitNanos} handles what fell due in between in one run.
     */
    public WakeUp timer(long minWaitNanos, long maxWaitNanos, Runnable task) {
        return new WakeUp(this, minWaitNanos, maxWaitNanos, task);
    }

    /** How many timers are waiting for their time. */
    public int armedCount() {
        return armed.size();
    }

    /**
     * The connection closes: nothing runs any more, whatever is armed now or later (a response that
     * completes after the close may still ask a timer to look again).
     */
    public void close() {
        closed = true;
        for (int i = 0; i < armed.size(); i++) {
            armed.get(i).cancelled();
        }
        armed.clear();
        for (int i = 0; i < due.size(); i++) {
            due.get(i).cancelled();
        }
        if (pending != null) {
            pending.cancel(false);
            pending = null;
        }
    }

    long nanoTime() {
        return clock.nanoTime();
    }

    /** {@code timer} waits for its {@link WakeUp#dueAtNanos}. */
    void arm(WakeUp timer) {
        if (closed) {
            timer.cancelled();
            return;
        }
        timer.armedAs = armings++;
        armed.add(timer);
        if (!firing && (pending == null || timer.dueAtNanos - pendingAtNanos < 0)) {
            schedule(timer.dueAtNanos);
        }
    }

    /**
     * {@code timer} no longer waits. The task stays scheduled: a wake-up that finds nothing due only
     * schedules the next, which is cheaper than rescheduling at every cancel.
     */
    void disarm(WakeUp timer) {
        armed.remove(timer);
    }

    private void schedule(long atNanos) {
        if (pending != null) {
            pending.cancel(false);
        }
        pendingAtNanos = atNanos;
        pending = loop.schedule(fire, Math.max(0, atNanos - clock.nanoTime()), TimeUnit.NANOSECONDS);
    }

    private void fire() {
        pending = null;
        if (closed) {
            return;
        }
        long now = clock.nanoTime();
        for (int i = armed.size() - 1; i >= 0; i--) {
            WakeUp timer = armed.get(i);
            if (timer.dueAtNanos - now <= 0) {
                int last = armed.size() - 1;
                armed.set(i, armed.get(last));
                armed.remove(last);
                timer.firing();
                due.add(timer);
            }
        }
        due.sort(EARLIEST_FIRST);
        firing = true;
        try {
            for (int i = 0; i < due.size(); i++) {
                run(due.get(i));
            }
        } finally {
            due.clear();
            firing = false;
            scheduleNext();
        }
    }

    /** Runs a due timer's task unless a task before it cancelled it; a failure stops only this one. */
    private static void run(WakeUp timer) {
        if (!timer.takeRun()) {
            return;
        }
        try {
            timer.task.run();
        } catch (RuntimeException e) {
            log.warn("A gate's timer failed", e);
        }
    }

    private void scheduleNext() {
        if (armed.isEmpty()) {
            return;
        }
        long earliest = armed.get(0).dueAtNanos;
        for (int i = 1; i < armed.size(); i++) {
            long at = armed.get(i).dueAtNanos;
            if (at - earliest < 0) {
                earliest = at;
            }
        }
        schedule(earliest);
    }
}
