package io.sluice.quota;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import io.sluice.limits.Direction;
import io.sluice.limits.EventRate;
import io.sluice.limits.Limit;
import io.sluice.limits.LimitsDocument;
import io.sluice.limits.MutationRate;
import io.sluice.limits.OnExceed;
import io.sluice.limits.RateLimit;
import io.sluice.limits.ScopeChain;
import io.sluice.limits.ScopeRef;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.DoubleSupplier;

/**
 * The quota engine: holds the current {@link LimitsDocument} and the token buckets of every
 * limited scope, and resolves the {@link QuotaPath} a resource's messages must fit, for any
 * {@link ScopeChain} a front end describes it by: its scopes in their kinds' rank
 * ({@link io.sluice.limits.ScopeKind#rank()}), then the proxy's.
 *
 * <p>Limits are an immutable snapshot swapped atomically by {@link #update}; each swap bumps a
 * version so paths know they are stale. Buckets live in a cache keyed by direction, scope and
 * dimension ({@link BucketKey}), expiring after they go unused for a while
 * ({@link #DEFAULT_IDLE_EXPIRY}), so a million short-lived topics leave nothing behind; buckets of
 * identities (scopes of a kind with a default entry: client ids, principals, roles, addresses,
 * which clients name as they like) are kept {@code maxTrackedIdentities} at most, the least used
 * recently dropped first, however fast new names come. Paths
 * re-resolve at least once a second, which touches their buckets, so a bucket in use never
 * expires; a changed limit is put in force in the same bucket, which keeps its state. A scope
 * limited by its kind's default entry ({@link LimitsDocument#limitInForce}) has a bucket of its own
 * at that limit, as one with its own entry has.
 *
 * <p>Each bucket enforces its share of its limit ({@link ScopeBucket}): the whole limit for a
 * Sluice on its own; a part of it, set by the cluster sync, when Sluices share limits.
 */
public final class QuotaEngine {

    /** How long an unused bucket is kept: long enough that a pause in traffic does not refill it early. */
    public static final Duration DEFAULT_IDLE_EXPIRY = Duration.ofMinutes(10);

    /** Buckets of identities kept at most by default ({@code --max-tracked-identities}). */
    public static final int DEFAULT_MAX_TRACKED_IDENTITIES = 100_000;

    private static final Comparator<ScopeRef> BY_RANK =
            Comparator.comparingInt(scope -> scope.kind().rank());

    private final NanoClock clock;
    private final AtomicReference<Snapshot> snapshot;
    private final Cache<BucketKey, ScopeBucket> buckets;
    private volatile DoubleSupplier initialShare = () -> 1.0;

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
        this(initial, clock, idleExpiry, DEFAULT_MAX_TRACKED_IDENTITIES);
    }

    /**
     * @param maxTrackedIdentities how many buckets identities may have at once (an identity limited
     *     in messages and bytes both ways has four); other scopes' buckets are not counted
     */
    public QuotaEngine(LimitsDocument initial, NanoClock clock, Duration idleExpiry, int maxTrackedIdentities) {
        this.clock = Objects.requireNonNull(clock, "clock");
        this.snapshot = new AtomicReference<>(new Snapshot(Objects.requireNonNull(initial, "initial"), 0));
        if (maxTrackedIdentities <= 0) {
            throw new IllegalArgumentException("maxTrackedIdentities must be positive, got " + maxTrackedIdentities);
        }
        this.buckets = Caffeine.newBuilder()
                .expireAfterAccess(Objects.requireNonNull(idleExpiry, "idleExpiry"))
                // Topics, prefixes, namespaces and tenants weigh nothing: only identities are bounded.
                .maximumWeight(maxTrackedIdentities)
                .weigher((BucketKey key, ScopeBucket bucket) ->
                        key.scope().kind().hasDefault() ? 1 : 0)
                .executor(Runnable::run)
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

    /**
     * The bucket a new client connection from {@code scope} (an {@link io.sluice.limits.ScopeKind#IPS}
     * scope, or any whose limit has a rate of connections) must fit: charge it one message per
     * connection ({@link QuotaPath#tryAcquire}). Empty, so admitting at once, when the scope's limit
     * has no rate of connections. The proxy's limit takes none.
     */
    public QuotaPath connectionPath(ScopeRef scope) {
        Snapshot current = snapshot.get();
        List<Rate> rates = new ArrayList<>(1);
        addScope(rates, Direction.ACCEPT, scope, current.limits().limitInForce(scope));
        return path(current, rates);
    }

    /**
     * The bucket a consumer group's JoinGroup ({@link Dimension#JOINS}) or OffsetCommit
     * ({@link Dimension#COMMITS}) request must fit, for the group's scope: charge it one message per
     * request. Empty, so admitting at once, when the scope's limit has no such rate. The bucket holds
     * a minute of the rate ({@link Limit#GROUP_BURST_SECONDS}).
     */
    public QuotaPath groupPath(ScopeRef scope, Dimension requests) {
        Snapshot current = snapshot.get();
        List<Rate> rates = new ArrayList<>(2);
        addScope(rates, Direction.GROUP, scope, current.limits().limitInForce(scope));
        rates.removeIf(rate -> rate.key().dimension() != requests);
        return path(current, rates);
    }

    /**
     * The buckets a request that creates work on the broker (a Pulsar LOOKUP, a Kafka Metadata)
     * must fit: charge it one message per request. {@code scopes} are those the request falls
     * under, of any kinds (the topic it names and its wider scopes, the client's identities and
     * address); each whose limit has a rate of requests has a bucket, in rank order, then the
     * proxy's when its limit has one. Empty, so admitting at once, when none has.
     */
    public QuotaPath requestPath(List<ScopeRef> scopes) {
        Snapshot current = snapshot.get();
        LimitsDocument limits = current.limits();
        List<Rate> rates = new ArrayList<>(scopes.size() + 1);
        for (ScopeRef scope : inRankOrder(scopes)) {
            addScope(rates, Direction.WORK, scope, limits.limitInForce(scope));
        }
        addScope(rates, Direction.WORK, ScopeRef.PROXY, limits.proxy());
        return path(current, rates);
    }

    /**
     * The buckets a Kafka topic mutation (a topic created or deleted, partitions added) must fit,
     * charged in partitions. {@code scopes} are the identities the request falls under (its client
     * id, its connection's principal); each whose limit has a rate of mutations has a bucket, in
     * rank order. The proxy's limit takes none. Empty, so admitting at once, when none has.
     */
    public QuotaPath mutationPath(List<ScopeRef> scopes) {
        Snapshot current = snapshot.get();
        LimitsDocument limits = current.limits();
        List<Rate> rates = new ArrayList<>(scopes.size());
        for (ScopeRef scope : inRankOrder(scopes)) {
            addScope(rates, Direction.TOPIC, scope, limits.limitInForce(scope));
        }
        return path(current, rates);
    }

    /**
     * Where a new bucket takes its share of its limit from until someone sets it: 1 (the whole
     * limit) unless a cluster sync says how many Sluices share the limits.
     */
    public void initialShare(DoubleSupplier share) {
        this.initialShare = Objects.requireNonNull(share, "share");
    }

    /**
     * The live buckets whose scope is limited in the limits in force, each brought up to date with
     * its limit: what a cluster sync reports and sets shares of. Reading them does not keep them
     * from expiring.
     */
    public List<ScopeBucket> limitedBuckets() {
        LimitsDocument limits = snapshot.get().limits();
        List<ScopeBucket> limited = new ArrayList<>();
        for (ScopeBucket bucket : buckets.asMap().values()) {
            BucketKey key = bucket.key();
            List<Rate> rates = new ArrayList<>(2);
            addScope(rates, key.direction(), key.scope(), limits.limitInForce(key.scope()));
            for (Rate rate : rates) {
                if (rate.key().equals(key)) {
                    bucket.limit(rate.perSecond(), rate.burstSeconds());
                    limited.add(bucket);
                }
            }
        }
        return limited;
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
        List<Rate> rates = new ArrayList<>(8);
        for (ScopeRef scope : inRankOrder(chain.scopes(limits))) {
            addScope(rates, direction, scope, limits.limitInForce(scope));
        }
        addScope(rates, direction, ScopeRef.PROXY, limits.proxy());
        return path(current, rates);
    }

    private QuotaPath path(Snapshot current, List<Rate> rates) {
        long now = clock.nanoTime();
        int size = rates.size();
        TokenBucket[] pathBuckets = new TokenBucket[size];
        BucketKey[] keys = new BucketKey[size];
        double[] limitRates = new double[size];
        OnExceed[] actions = new OnExceed[size];
        for (int i = 0; i < size; i++) {
            Rate rate = rates.get(i);
            ScopeBucket bucket = buckets.get(
                    rate.key(),
                    key -> new ScopeBucket(
                            key, rate.perSecond(), rate.burstSeconds(), initialShare.getAsDouble(), clock));
            bucket.limit(rate.perSecond(), rate.burstSeconds());
            pathBuckets[i] = bucket.bucket();
            keys[i] = rate.key();
            limitRates[i] = rate.perSecond();
            actions[i] = rate.onExceed();
        }
        return new QuotaPath(this, current.version(), now, pathBuckets, keys, limitRates, actions);
    }

    /** The chain's scopes by their kinds' rank, most specific first; scopes of one rank keep their order. */
    private static List<ScopeRef> inRankOrder(List<ScopeRef> scopes) {
        List<ScopeRef> ordered = new ArrayList<>(scopes);
        ordered.sort(BY_RANK);
        return ordered;
    }

    private static void addScope(List<Rate> rates, Direction direction, ScopeRef scope, Limit limit) {
        if (direction == Direction.GROUP) {
            if (limit != null) {
                addPerMinute(rates, scope, Dimension.JOINS, limit.joinsPerMinute(), limit.onExceed());
                addPerMinute(rates, scope, Dimension.COMMITS, limit.commitsPerMinute(), limit.onExceed());
            }
            return;
        }
        if (direction == Direction.TOPIC) {
            MutationRate mutations = limit == null ? null : limit.mutations();
            if (mutations != null && mutations.partitionsPerSecond() != null) {
                rates.add(new Rate(
                        new BucketKey(direction, scope, Dimension.MUTATIONS),
                        mutations.partitionsPerSecond(),
                        mutations.burstSeconds(),
                        limit.onExceed()));
            }
            return;
        }
        if (direction == Direction.ACCEPT || direction == Direction.WORK) {
            EventRate events =
                    limit == null ? null : direction == Direction.ACCEPT ? limit.connections() : limit.requests();
            if (events != null && events.perSecond() != null) {
                rates.add(new Rate(
                        new BucketKey(
                                direction,
                                scope,
                                direction == Direction.ACCEPT ? Dimension.CONNECTIONS : Dimension.REQUESTS),
                        events.perSecond(),
                        events.burstSeconds(),
                        limit.onExceed()));
            }
            return;
        }
        RateLimit limited = limit == null ? null : limit.rates(direction);
        if (limited == null) {
            return;
        }
        if (limited.messagesPerSecond() != null) {
            rates.add(new Rate(
                    new BucketKey(direction, scope, Dimension.MESSAGES),
                    limited.messagesPerSecond(),
                    limited.burstSeconds(),
                    limit.onExceed()));
        }
        if (limited.bytesPerSecond() != null) {
            rates.add(new Rate(
                    new BucketKey(direction, scope, Dimension.BYTES),
                    limited.bytesPerSecond(),
                    limited.burstSeconds(),
                    limit.onExceed()));
        }
    }

    private static void addPerMinute(
            List<Rate> rates, ScopeRef scope, Dimension dimension, Double perMinute, OnExceed onExceed) {
        if (perMinute != null) {
            rates.add(new Rate(
                    new BucketKey(Direction.GROUP, scope, dimension),
                    perMinute / 60,
                    Limit.GROUP_BURST_SECONDS,
                    onExceed));
        }
    }

    /** One limited rate on a path being resolved. */
    private record Rate(BucketKey key, double perSecond, double burstSeconds, OnExceed onExceed) {}

    /** Limits and their version, swapped together. */
    private record Snapshot(LimitsDocument limits, long version) {}
}
