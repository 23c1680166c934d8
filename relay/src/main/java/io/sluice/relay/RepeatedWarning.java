package io.sluice.relay;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;

/**
 * A warning that a peer can make Sluice repeat, one per reason: logged at most once per
 * {@link #INTERVAL}, and the line that is logged says how many were left out since the last one,
 * so a flood of bad connections costs one log line every ten seconds, not one each. Lock-free; any
 * thread may call.
 *
 * <pre>{@code
 * long left = warning.admit();
 * if (left >= 0) {
 *     log.warn("Closing connection from {}: {}{}", address, why, RepeatedWarning.leftOut(left));
 * }
 * }</pre>
 */
public final class RepeatedWarning {

    /** At most one line per reason in this long. */
    public static final Duration INTERVAL = Duration.ofSeconds(10);

    private final LongSupplier nanoClock;
    private final long intervalNanos;
    private final AtomicLong next;
    private final AtomicLong leftOut = new AtomicLong();

    /** A warning on the system's clock, once per {@link #INTERVAL}. */
    public RepeatedWarning() {
        this(System::nanoTime, INTERVAL);
    }

    /** @param nanoClock the time in nanoseconds, as {@link System#nanoTime} */
    public RepeatedWarning(LongSupplier nanoClock, Duration interval) {
        this.nanoClock = nanoClock;
        this.intervalNanos = interval.toNanos();
        this.next = new AtomicLong(nanoClock.getAsLong());
    }

    /**
     * One more occurrence: the number left out since the last line when this one is to be logged
     * (0 or more), or -1 when it is left out.
     */
    public long admit() {
        long now = nanoClock.getAsLong();
        long due = next.get();
        if (now - due >= 0 && next.compareAndSet(due, now + intervalNanos)) {
            return leftOut.getAndSet(0);
        }
        leftOut.incrementAndGet();
        return -1;
    }

    /** What a logged line adds for {@code count} left out: nothing for none. */
    public static String leftOut(long count) {
        return count <= 0 ? "" : " (and " + count + " more like it since the last one logged)";
    }

    /** A {@link RepeatedWarning} for each reason, made the first time a reason comes; reasons are the code's own words. */
    public static final class PerReason {

        private final Map<String, RepeatedWarning> warnings = new ConcurrentHashMap<>();

        /** As {@link RepeatedWarning#admit()}, for the warning of {@code reason}. */
        public long admit(String reason) {
            return warnings.computeIfAbsent(reason, r -> new RepeatedWarning()).admit();
        }
    }
}
