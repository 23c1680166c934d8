package io.sluice.quota;

import io.sluice.limits.OnExceed;

/**
 * The buckets one message of one resource must fit, in one direction, most specific scope first
 * as the resource's {@link io.sluice.limits.ScopeChain} lists them, the proxy last. Only limited
 * rates have a bucket, so a path with no limits is empty and admits at once.
 *
 * <p>Made by {@link QuotaEngine#publishPath} or {@link QuotaEngine#dispatchPath}. Immutable and
 * thread-safe; the buckets are shared with every other path through the same scopes, which is
 * how a namespace limit covers all its topics and connections. A caller keeps a path per
 * producer or consumer and resolves it again when {@link #isCurrent} says so.
 */
public final class QuotaPath {

    /** Re-resolving at least this often touches the path's buckets in the engine's cache, so buckets in use never expire. */
    private static final long MAX_AGE_NANOS = 1_000_000_000L;

    private final QuotaEngine engine;
    private final long version;
    private final long resolvedAtNanos;
    // Parallel arrays, most specific first; flat so tryAcquire reads no more than it must.
    private final TokenBucket[] buckets;
    private final boolean[] countsBytes;
    private final BucketKey[] keys;
    private final double[] limitRates;
    private final OnExceed[] actions;

    QuotaPath(
            QuotaEngine engine,
            long version,
            long resolvedAtNanos,
            TokenBucket[] buckets,
            BucketKey[] keys,
            double[] limitRates,
            OnExceed[] actions) {
        this.engine = engine;
        this.version = version;
        this.resolvedAtNanos = resolvedAtNanos;
        this.buckets = buckets;
        this.keys = keys;
        this.limitRates = limitRates;
        this.actions = actions;
        this.countsBytes = new boolean[keys.length];
        for (int i = 0; i < keys.length; i++) {
            countsBytes[i] = keys[i].dimension() == Dimension.BYTES;
        }
    }

    /** True when no scope limits this topic in this direction. */
    public boolean isUnlimited() {
        return buckets.length == 0;
    }

    /** True when some scope limits bytes, which a caller may only learn after the fact (as for dispatch). */
    public boolean limitsBytes() {
        for (boolean bytes : countsBytes) {
            if (bytes) {
                return true;
            }
        }
        return false;
    }

    /**
     * False when the limits changed since this path was resolved, or it is older than a second:
     * the caller should then get a new path from the engine.
     */
    public boolean isCurrent(long nowNanos) {
        return engine.version() == version && nowNanos - resolvedAtNanos < MAX_AGE_NANOS;
    }

    /**
     * Admits a batch if every scope on the path admits it (a batch larger than a scope's bucket
     * once that bucket is full: {@link TokenBucket#admits(long, long)}), and then charges every scope; if any
     * scope refuses, charges none, marks that scope's bucket as having refused (its demand is
     * more than its rate) and fills {@code out}. Lock-free: two threads racing may each
     * pass the check before either charges, so a bucket can go one batch per thread further
     * negative than a single caller would take it.
     *
     * @param out filled only when the batch is refused
     * @return whether the batch was admitted
     */
    public boolean tryAcquire(long nowNanos, int messages, long bytes, QuotaDecision out) {
        TokenBucket[] path = buckets;
        for (int i = 0; i < path.length; i++) {
            if (!path[i].admits(nowNanos, countsBytes[i] ? bytes : messages)) {
                path[i].refused();
                out.refuse(
                        waitNanos(nowNanos, messages, bytes), keys[i], limitRates[i], actions[i], path[i].isAdapted());
                return false;
            }
        }
        for (int i = 0; i < path.length; i++) {
            path[i].charge(nowNanos, countsBytes[i] ? bytes : messages);
        }
        return true;
    }

    /**
     * Admits a charge of {@code units}, whatever its size, while no scope on the path is in debt
     * (each balance above zero), and then charges every scope in full, which may leave them in debt:
     * Kafka's strict rule for topic mutations (KIP-599), which never splits a topic. If a scope is
     * in debt, charges none, marks that scope's bucket as having refused and fills {@code out}, its
     * wait being the time until no scope is in debt.
     *
     * @param out filled only when the charge is refused
     * @return whether the charge was admitted
     */
    public boolean tryAcquireWhole(long nowNanos, int units, QuotaDecision out) {
        TokenBucket[] path = buckets;
        for (int i = 0; i < path.length; i++) {
            if (!path[i].admits(nowNanos)) {
                path[i].refused();
                out.refuse(waitNanos(nowNanos), keys[i], limitRates[i], actions[i], path[i].isAdapted());
                return false;
            }
        }
        charge(nowNanos, units, 0);
        return true;
    }

    /** Charges every scope whatever the balance, for traffic that is already through (such as dispatched bytes). */
    public void charge(long nowNanos, int messages, long bytes) {
        for (int i = 0; i < buckets.length; i++) {
            buckets[i].charge(nowNanos, countsBytes[i] ? bytes : messages);
        }
    }

    /**
     * What every scope on the path that counts {@code bytes} (or messages) has left now, in whole
     * units: the least of their balances, negative while one is in debt; {@link Long#MAX_VALUE}
     * when no scope limits that dimension.
     */
    public long balance(long nowNanos, boolean bytes) {
        long least = Long.MAX_VALUE;
        for (int i = 0; i < buckets.length; i++) {
            if (countsBytes[i] == bytes) {
                least = Math.min(least, (long) Math.floor(buckets[i].balance(nowNanos)));
            }
        }
        return least;
    }

    /** Gives back to every scope a charge for traffic that never got through (a batch the broker refused). */
    public void giveBack(long nowNanos, int messages, long bytes) {
        for (int i = 0; i < buckets.length; i++) {
            buckets[i].giveBack(nowNanos, countsBytes[i] ? bytes : messages);
        }
    }

    /**
     * Nanoseconds until every scope on the path admits a batch of {@code messages} and
     * {@code bytes}; 0 if they all admit it now.
     */
    public long waitNanos(long nowNanos, int messages, long bytes) {
        long wait = 0;
        for (int i = 0; i < buckets.length; i++) {
            wait = Math.max(wait, buckets[i].waitNanos(nowNanos, countsBytes[i] ? bytes : messages));
        }
        return wait;
    }

    /**
     * Nanoseconds until every scope on the path admits a batch no larger than its bucket; 0 if
     * they all admit one now.
     */
    public long waitNanos(long nowNanos) {
        long wait = 0;
        for (TokenBucket bucket : buckets) {
            wait = Math.max(wait, bucket.waitNanos(nowNanos));
        }
        return wait;
    }
}
