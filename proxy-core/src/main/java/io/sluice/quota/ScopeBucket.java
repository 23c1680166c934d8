package io.sluice.quota;

/**
 * The token bucket of one {@link BucketKey}, with the limit it enforces, the part of that limit
 * in force while the limit is adaptive, and the share of it this Sluice may use: its rate is
 * {@code limitRate x adaptiveFraction x share}. A Sluice alone has the whole limit (share 1);
 * Sluices that share limits through a cluster store each get a part, which the cluster sync sets
 * every interval (io.sluice.cluster). An adaptive limit's fraction follows the upstream's latency
 * (io.sluice.adaptive); a fixed limit's is 1. Changing any of them keeps the bucket's state.
 *
 * <p>Thread-safe: the hot path uses the {@link TokenBucket} directly; changes of limit or share are
 * rare and serialised here.
 */
public final class ScopeBucket {

    private final BucketKey key;
    private final TokenBucket bucket;
    private final NanoClock clock;
    // Volatile so that the check on every path resolve needs no lock; changes take the lock.
    private volatile double limitRate;
    private volatile double burstSeconds;
    private volatile double share;
    private volatile double adaptiveFraction = 1;

    ScopeBucket(BucketKey key, double limitRate, double burstSeconds, double share, NanoClock clock) {
        this.key = key;
        this.clock = clock;
        this.limitRate = limitRate;
        this.burstSeconds = burstSeconds;
        this.share = checkedShare(share);
        this.bucket = new TokenBucket(limitRate * this.share, burstSeconds, clock.nanoTime());
    }

    /** The rate this Sluice's bucket admits now: {@code limitRate x adaptiveFraction x share}. */
    public double rate() {
        return bucket.rate();
    }

    public BucketKey key() {
        return key;
    }

    /** The rate of the limit, in {@link BucketKey#dimension()} per second, for all Sluices together. */
    public double limitRate() {
        return limitRate;
    }

    /** The part of {@link #limitRate()} this Sluice may use, more than 0 and at most 1. */
    public double share() {
        return share;
    }

    /**
     * Sets the part of the limit this Sluice may use, keeping the bucket's balance in units (at most
     * its new capacity: {@link TokenBucket#setRateKeepingBalance}), so that a share moving every
     * sync neither forgives what went through nor makes room that was not earned.
     *
     * @param share more than 0 and at most 1
     */
    public synchronized void share(double share) {
        this.share = checkedShare(share);
        bucket.setRateKeepingBalance(limitRate * adaptiveFraction * this.share, burstSeconds, clock.nanoTime());
    }

    /** The part of {@link #limitRate()} in force for all Sluices together: 1 unless the limit is adaptive. */
    public double adaptiveFraction() {
        return adaptiveFraction;
    }

    /**
     * Sets the part of the limit in force, as an adaptive limit's controller decides, keeping the
     * bucket's balance as time; 1 puts the whole limit back in force.
     *
     * @param fraction more than 0 and at most 1
     */
    public synchronized void adapt(double fraction) {
        if (!(fraction > 0 && fraction <= 1)) {
            throw new IllegalArgumentException(
                    "an adaptive fraction must be more than 0 and at most 1, got " + fraction);
        }
        this.adaptiveFraction = fraction;
        bucket.adapted(fraction < 1);
        applyRate();
    }

    /** Every unit charged to the bucket so far; the difference of two readings is the usage between them. */
    public long chargedUnits() {
        return bucket.chargedUnits();
    }

    /**
     * Whether the bucket refused traffic since the last call (clearing the mark), or owes now: a
     * bucket in debt has clients waiting on it even when none asked since (a Kafka producer told
     * by {@code notify} to stay silent for the throttle time), so its demand is more than its rate.
     */
    public boolean takeRefused() {
        boolean refused = bucket.takeRefused();
        return bucket.owes(clock.nanoTime()) || refused;
    }

    TokenBucket bucket() {
        return bucket;
    }

    /** Puts a (possibly) changed limit in force, keeping the share and the bucket's state. */
    void limit(double limitRate, double burstSeconds) {
        if (limitRate == this.limitRate && burstSeconds == this.burstSeconds) {
            return;
        }
        synchronized (this) {
            this.limitRate = limitRate;
            this.burstSeconds = burstSeconds;
            applyRate();
        }
    }

    private void applyRate() {
        bucket.setRate(limitRate * adaptiveFraction * share, burstSeconds);
    }

    private static double checkedShare(double share) {
        if (!(share > 0 && share <= 1)) {
            throw new IllegalArgumentException("a share must be more than 0 and at most 1, got " + share);
        }
        return share;
    }
}
