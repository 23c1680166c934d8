package io.sluice.quota;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.atomic.LongAdder;

/**
 * A lock-free token bucket, safe to use from several threads at once, implemented as GCRA (the
 * generic cell rate algorithm): its whole state is one "theoretical arrival time" ({@code tat}),
 * the time at which the bucket would be full again if nothing more were taken.
 *
 * <p>The balance in units is {@code (burst - max(0, tat - now)) / ticksPerUnit}: a fresh or
 * long-idle bucket holds its capacity, {@code rate x burstSeconds}. A charge is admitted while
 * the balance is positive, and may be larger than what is left: it drives the balance negative and
 * later charges wait until it has recovered. This is the semantics of Pulsar's PIP-322 rate
 * limiter. A charge larger than the capacity (a client's large batch, which cannot be split) is
 * admitted only when the bucket is full, so it leaves the balance no lower than minus its excess
 * over the capacity, and a stream of such batches goes at the rate rather than a batch per
 * recovered burst ({@link #admits(long, long)}).
 *
 * <p>Precision: time is kept in ticks of 1/64 ns and each charge costs
 * {@code ceil(units x 64e9 / rate)} ticks, computed afresh for each charge, so a rounded
 * per-unit cost never compounds: a charge is off by less than 1/64 ns, never in the caller's
 * favour, and a full bucket of capacity N admits exactly N single units. (Whole nanoseconds
 * would be 0.1 % off for single messages at 3 million a second.) Ticks are compared by difference, like
 * {@link System#nanoTime()} values, which is exact while differences stay under 2^57 ns (4.5
 * years); a single charge is capped at a year of rate to stay far from that.
 *
 * <p>The rate and burst can change while the bucket is in use: {@link #setRate} keeps what it
 * owes as time, so a bucket in debt stays in debt and a full one stays full at the new size;
 * {@link #setRateKeepingBalance}, for a cluster share, keeps its balance in units. The
 * bucket also counts the units it was charged and whether it refused since last asked, which is
 * what a cluster of Sluices shares to split a limit (io.sluice.cluster).
 *
 * <p>All methods take {@code nowNanos} from the same {@link NanoClock} as the bucket was created with.
 */
public final class TokenBucket {

    private static final int TICK_BITS = 6;
    private static final double TICKS_PER_SECOND = 1e9 * (1 << TICK_BITS);
    private static final long MAX_COST_TICKS = (365L * 24 * 3600 * 1_000_000_000L) << TICK_BITS;

    private static final VarHandle TAT;
    private static final VarHandle REFUSED;

    static {
        try {
            TAT = MethodHandles.lookup().findVarHandle(TokenBucket.class, "tat", long.class);
            REFUSED = MethodHandles.lookup().findVarHandle(TokenBucket.class, "refused", boolean.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    // Volatile so that a rate set by another thread is seen at once; written rarely, read as plain loads on x86.
    private volatile double unitsPerSecond;
    private volatile double ticksPerUnit;
    private volatile long burstTicks;
    // A field updated through a VarHandle rather than an AtomicLong: one object and one pointer fewer on the hot path.
    private volatile long tat;
    private final LongAdder charged = new LongAdder();
    private volatile boolean refused;
    private volatile boolean adapted;

    /**
     * A full bucket.
     *
     * @param unitsPerSecond the refill rate, positive and finite
     * @param burstSeconds seconds of rate the bucket holds, positive and finite
     * @param nowNanos the current time
     */
    public TokenBucket(double unitsPerSecond, double burstSeconds, long nowNanos) {
        checkRate(unitsPerSecond, burstSeconds);
        apply(unitsPerSecond, burstSeconds);
        this.tat = ticks(nowNanos);
    }

    /**
     * Changes the rate and burst from now on without resetting the bucket: the time it owes is
     * kept, so its balance in units scales with the new size (a changed limit, an adaptive limit's
     * step).
     *
     * @param unitsPerSecond the refill rate, positive and finite
     * @param burstSeconds seconds of rate the bucket holds, positive and finite
     */
    public void setRate(double unitsPerSecond, double burstSeconds) {
        checkRate(unitsPerSecond, burstSeconds);
        apply(unitsPerSecond, burstSeconds);
    }

    /**
     * Changes the rate and burst from now on keeping the balance in units, at most the new
     * capacity: for a cluster share, which moves every sync while the limit stays. Kept as time, a
     * share that falls would forgive a bucket in debt part of what it let through, and one that
     * rises would fill a full bucket to the larger size at once; a share that jitters around its
     * mean would let a saturated Sluice through more than its share. In units, a change neither
     * creates room nor forgives what went.
     *
     * @param unitsPerSecond the refill rate, positive and finite
     * @param burstSeconds seconds of rate the bucket holds, positive and finite
     * @param nowNanos the current time
     */
    public void setRateKeepingBalance(double unitsPerSecond, double burstSeconds, long nowNanos) {
        checkRate(unitsPerSecond, burstSeconds);
        long now = ticks(nowNanos);
        double newTicksPerUnit = TICKS_PER_SECOND / unitsPerSecond;
        long newBurstTicks = Math.round(burstSeconds * TICKS_PER_SECOND);
        for (; ; ) {
            long current = (long) TAT.getVolatile(this);
            double balance = (burstTicks - Math.max(current - now, 0)) / ticksPerUnit;
            long held = (long) Math.ceil(Math.max(0, newBurstTicks - balance * newTicksPerUnit));
            if (TAT.compareAndSet(this, current, now + Math.min(held, MAX_COST_TICKS))) {
                break;
            }
        }
        apply(unitsPerSecond, burstSeconds);
    }

    private void apply(double unitsPerSecond, double burstSeconds) {
        this.unitsPerSecond = unitsPerSecond;
        this.ticksPerUnit = TICKS_PER_SECOND / unitsPerSecond;
        this.burstTicks = Math.round(burstSeconds * TICKS_PER_SECOND);
    }

    private static void checkRate(double unitsPerSecond, double burstSeconds) {
        if (!(unitsPerSecond > 0)
                || Double.isInfinite(unitsPerSecond)
                || !(burstSeconds > 0)
                || Double.isInfinite(burstSeconds)) {
            throw new IllegalArgumentException(
                    "rate and burst must be positive and finite, got " + unitsPerSecond + " and " + burstSeconds);
        }
    }

    /** True when the balance is not positive: traffic charged to the bucket now waits (or was let through in debt). */
    public boolean owes(long nowNanos) {
        return !admits(nowNanos);
    }

    /** True when the balance is positive, so that a charge no larger than the capacity would be admitted now. */
    public boolean admits(long nowNanos) {
        return (long) TAT.getVolatile(this) - ticks(nowNanos) < burstTicks;
    }

    /**
     * True when a charge of {@code units} would be admitted now: the balance is positive and, for a
     * charge larger than the capacity, the bucket is full.
     */
    public boolean admits(long nowNanos, long units) {
        long debt = (long) TAT.getVolatile(this) - ticks(nowNanos);
        return costTicks(units) > burstTicks ? debt <= 0 : debt < burstTicks;
    }

    /**
     * Remembers that a caller found this bucket empty and held, rejected or paused traffic: its
     * demand was more than its rate. Written only when not set already, so a throttled bucket
     * does not bounce its cache line between event loops.
     */
    public void refused() {
        if (!refused) {
            refused = true;
        }
    }

    /**
     * Marks the bucket's rate as lowered by an adaptive limit (below its configured rate), so that a
     * refusal can say so; read only when the bucket refuses.
     */
    public void adapted(boolean adapted) {
        this.adapted = adapted;
    }

    /** Whether an adaptive limit holds the bucket's rate below its configured rate. */
    public boolean isAdapted() {
        return adapted;
    }

    /** Whether {@link #refused} was called since the last call of this method; clears the mark. */
    public boolean takeRefused() {
        return (boolean) REFUSED.getAndSet(this, false);
    }

    /** Every unit this bucket was charged since it was created, whether admitted by {@link #tryAcquire} or charged. */
    public long chargedUnits() {
        return charged.sum();
    }

    /**
     * Takes {@code units} if {@link #admits(long, long)} says so, atomically.
     *
     * @return whether the units were taken
     */
    public boolean tryAcquire(long nowNanos, long units) {
        long now = ticks(nowNanos);
        long cost = costTicks(units);
        // A charge larger than the bucket waits for it to be full (see admits(long, long)).
        long mostDebt = cost > burstTicks ? 1 : burstTicks;
        for (; ; ) {
            long current = (long) TAT.getVolatile(this);
            if (current - now >= mostDebt) {
                refused();
                return false;
            }
            if (TAT.compareAndSet(this, current, later(current, now) + cost)) {
                charged.add(units);
                return true;
            }
        }
    }

    /** Takes {@code units} whatever the balance, e.g. for traffic that was let through already. */
    public void charge(long nowNanos, long units) {
        move(nowNanos, units, false);
    }

    /**
     * Gives back {@code units} taken earlier for traffic that never reached its destination (a
     * batch the broker refused): the bucket is as if they had not been taken, but never fuller than
     * full.
     */
    public void giveBack(long nowNanos, long units) {
        move(nowNanos, units, true);
    }

    /** Moves the bucket's time by the cost of {@code units}: forward for a charge, {@code back} for a refund. */
    private void move(long nowNanos, long units, boolean back) {
        long cost = costTicks(units);
        if (cost == 0) {
            return;
        }
        long now = ticks(nowNanos);
        long current;
        long next;
        do {
            current = (long) TAT.getVolatile(this);
            next = back ? later(current - cost, now) : later(current, now) + cost;
        } while (!TAT.compareAndSet(this, current, next));
        charged.add(back ? -units : units);
    }

    /** Nanoseconds until {@link #admits} turns true; 0 if it is true now. */
    public long waitNanos(long nowNanos) {
        // admits needs tat - now < burst, i.e. now >= tat - burst + 1 (in ticks); round up to whole nanoseconds.
        long waitTicks = (long) TAT.getVolatile(this) - burstTicks + 1 - ticks(nowNanos);
        return waitTicks <= 0 ? 0 : (waitTicks + (1 << TICK_BITS) - 1) >> TICK_BITS;
    }

    /** Nanoseconds until {@link #admits(long, long)} turns true for {@code units}; 0 if it is true now. */
    public long waitNanos(long nowNanos, long units) {
        if (costTicks(units) <= burstTicks) {
            return waitNanos(nowNanos);
        }
        long waitTicks = (long) TAT.getVolatile(this) - ticks(nowNanos);
        return waitTicks <= 0 ? 0 : (waitTicks + (1 << TICK_BITS) - 1) >> TICK_BITS;
    }

    /** The units that could be taken now; negative after an oversized charge. */
    public double balance(long nowNanos) {
        long debt = Math.max((long) TAT.getVolatile(this) - ticks(nowNanos), 0);
        return (burstTicks - debt) / ticksPerUnit;
    }

    /** Units per second. */
    public double rate() {
        return unitsPerSecond;
    }

    /** The most units the bucket holds: rate x burstSeconds. */
    public double capacity() {
        return burstTicks / ticksPerUnit;
    }

    private long costTicks(long units) {
        if (units <= 0) {
            return 0;
        }
        return Math.min((long) Math.ceil(units * ticksPerUnit), MAX_COST_TICKS);
    }

    /** Nanoseconds to ticks; the shift may wrap, which is harmless because ticks are only compared by difference. */
    private static long ticks(long nanos) {
        return nanos << TICK_BITS;
    }

    /** The later of two tick counts, by difference as for {@link System#nanoTime()}. */
    private static long later(long a, long b) {
        return a - b > 0 ? a : b;
    }
}
