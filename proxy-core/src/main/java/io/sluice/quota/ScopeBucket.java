package io.sluice.quota;

/**
 * The token bucket of one {@link BucketKey}, with the limit it enforces and the share of that
 * limit this Sluice may use: its rate is {@code limitRate x share}. A Sluice alone has the whole
 * limit (share 1); Sluices that share limits through a cluster store each get a part, which the
 * cluster sync sets every interval (io.sluice.cluster). Changing either keeps the bucket's state.
 *
 * <p>Thread-safe: the hot path uses the {@link TokenBucket} directly; changes of limit or share are
 * rare and serialised here.
 */
public final class ScopeBucket {

    private final BucketKey key;
    private final TokenBucket bucket;
    // Volatile so that the check on every path resolve needs no lock; changes take the lock.
    private volatile double limitRate;
    private volatile double burstSeconds;
    private volatile double share;

    ScopeBucket(BucketKey key, double limitRate, double burstSeconds, double share, long nowNanos) {
        this.key = key;
        this.limitRate = limitRate;
        this.burstSeconds = burstSeconds;
        this.share = checkedShare(share);
        this.bucket = new TokenBucket(limitRate * this.share, burstSeconds, nowNanos);
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
     * Sets the part of the limit this Sluice may use, keeping the bucket's balance as time.
     *
     * @param share more than 0 and at most 1
     */
    public synchronized void share(double share) {
        this.share = checkedShare(share);
        bucket.setRate(limitRate * this.share, burstSeconds);
    }

    /** Every unit charged to the bucket so far; the difference of two readings is the usage between them. */
    public long chargedUnits() {
        return bucket.chargedUnits();
    }

    /** Whether the bucket refused traffic since the last call; clears the mark. */
    public boolean takeRefused() {
        return bucket.takeRefused();
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
            bucket.setRate(limitRate * share, burstSeconds);
        }
    }

    private static double checkedShare(double share) {
        if (!(share > 0 && share <= 1)) {
            throw new IllegalArgumentException("a share must be more than 0 and at most 1, got " + share);
        }
        return share;
    }
}
