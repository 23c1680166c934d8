package io.sluice.quota;

import io.sluice.limits.Direction;
import io.sluice.limits.Limit;
import io.sluice.limits.LimitsDocument;
import io.sluice.limits.OnExceed;
import io.sluice.limits.RateLimit;
import io.sluice.limits.ScopeChain;
import io.sluice.limits.ScopeRef;
import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The quota engine: holds the current {@link LimitsDocument} and the token buckets of every
 * limited scope, and resolves the {@link QuotaPath} a resource's messages must fit, for any
 * {@link ScopeChain} a front end describes it by.
 *
 * <p>Limits are an immutable snapshot swapped atomically by {@link #update}; each swap bumps a
 * version so paths know they are stale. Buckets live in a cache keyed by direction, scope, name
 * and limit values, expiring after they go unused for a while ({@link #DEFAULT_IDLE_EXPIRY}), so
 * a million short-lived topics leave nothing behind. Paths re-resolve at least once a second,
 * which touches their buckets, so a bucket in use never expires.
 */
public final class QuotaEngine {

    /** How long an unused bucket is kept: long enough that a pause in traffic does not refill it early. */
    public static final Duration DEFAULT_IDLE_EXPIRY = Duration.ofMinutes(10);

    private final NanoClock clock;
    private final AtomicReference<Snapshot> snapshot;
    private final Cache<BucketKey, TokenBucket> buckets;

    /** An engine with the default idle expiry. */
    public QuotaEngine(LimitsDocument initial, NanoClock clock) {
        this(initial, clock, DEFAULT_IDLE_EXPIRY);
    }

    /**
     * @param initial the limits to start with
     * @param clock the time source for bucket creation, cache expiry and path age; callers pass
     *     times from the same clock to {@link QuotaPath}
     * @param idleExpiry how long a bucket nobody resolves is kept
     */
    public QuotaEngine(LimitsDocument initial, NanoClock clock, Duration idleExpiry) {
        this.clock = Objects.requireNonNull(clock, "clock");
        this.snapshot = new AtomicReference<>(new Snapshot(Objects.requireNonNull(initial, "initial"), 0));
        this.buckets = Caffeine.newBuilder()
                .expireAfterAccess(Objects.requireNonNull(idleExpiry, "idleExpiry"))
                .ticker(clock::nanoTime)
                .build();
    }

    /** The limits in force. */
    public LimitsDocument limits() {
        return snapshot.get().limits();
    }

    /** Increases by one with every {@link #update}. */
    public long version() {
        return snapshot.get().version();
    }

    /** The clock the engine was made with; callers read {@code nowNanos} from it. */
    public NanoClock clock() {
        return clock;
    }

    /** Puts new limits in force at once; paths resolved before see they are stale. */
    public void update(LimitsDocument limits) {
        Objects.requireNonNull(limits, "limits");
        snapshot.updateAndGet(current -> new Snapshot(limits, current.version() + 1));
    }

    /** The buckets a message published by the resource of {@code chain} must fit. */
    public QuotaPath publishPath(ScopeChain chain) {
        return resolve(Direction.PUBLISH, chain);
    }

    /** The buckets a message dispatched to a consumer of the resource of {@code chain} must fit. */
    public QuotaPath dispatchPath(ScopeChain chain) {
        return resolve(Direction.DISPATCH, chain);
    }

    /** The number of buckets held, after dropping those that expired. */
    public long liveBucketCount() {
        buckets.cleanUp();
        return buckets.estimatedSize();
    }

    private QuotaPath resolve(Direction direction, ScopeChain chain) {
        // Read the version together with the limits, so a path never claims a newer version than its buckets.
        Snapshot current = snapshot.get();
        LimitsDocument limits = current.limits();
        List<BucketKey> keys = new ArrayList<>(8);
        List<OnExceed> actions = new ArrayList<>(8);
        for (ScopeRef scope : chain.scopes(limits)) {
            addScope(keys, actions, direction, scope, limits.limitOf(scope));
        }
        addScope(keys, actions, direction, ScopeRef.PROXY, limits.proxy());

        long now = clock.nanoTime();
        TokenBucket[] pathBuckets = new TokenBucket[keys.size()];
        for (int i = 0; i < pathBuckets.length; i++) {
            pathBuckets[i] = buckets.get(keys.get(i), key -> new TokenBucket(key.rate(), key.burstSeconds(), now));
        }
        return new QuotaPath(this, current.version(), now, pathBuckets,
                keys.toArray(new BucketKey[0]), actions.toArray(new OnExceed[0]));
    }

    private static void addScope(List<BucketKey> keys, List<OnExceed> actions, Direction direction,
                                 ScopeRef scope, Limit limit) {
        RateLimit rates = limit == null ? null : limit.rates(direction);
        if (rates == null) {
            return;
        }
        if (rates.messagesPerSecond() != null) {
            keys.add(new BucketKey(direction, scope, Dimension.MESSAGES, rates.messagesPerSecond(), rates.burstSeconds()));
            actions.add(limit.onExceed());
        }
        if (rates.bytesPerSecond() != null) {
            keys.add(new BucketKey(direction, scope, Dimension.BYTES, rates.bytesPerSecond(), rates.burstSeconds()));
            actions.add(limit.onExceed());
        }
    }

    /** Limits and their version, swapped together. */
    private record Snapshot(LimitsDocument limits, long version) {
    }
}
