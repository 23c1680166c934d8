package io.sluice.cluster;

import io.sluice.quota.NanoClock;
import io.sluice.quota.QuotaEngine;
import io.sluice.quota.ScopeBucket;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.LongConsumer;

/**
 * Keeps this Sluice's share of every cluster-wide limit current (docs/ARCHITECTURE.md, "Many
 * Sluices, one limit"). Every sync interval, off the hot path, it reads what each limited bucket
 * let through and whether it refused, reports that demand to the {@link ClusterStore} and reads
 * everyone's in the same round trip, then sets each bucket's rate to this Sluice's
 * {@link FairShare} of the limit. Messages are still decided by the local buckets alone.
 *
 * <p>When the store fails, the last shares stay for {@link #STALE_INTERVALS} intervals; after
 * that each limit is split evenly among the Sluices last seen enforcing it, until the store
 * answers again. Traffic never waits for the store.
 *
 * <p>{@link #tick()} runs on one thread at a time (the sync's own, or a test's); {@link #status()}
 * may be read from any.
 */
public final class ClusterSync implements AutoCloseable {

    /** Intervals without an answer after which the last shares are no longer trusted. */
    public static final int STALE_INTERVALS = 3;

    private static final Logger log = LoggerFactory.getLogger(ClusterSync.class);

    private final String clusterId;
    private final String member;
    private final Duration interval;
    private final QuotaEngine engine;
    private final ClusterStore store;
    private final LongConsumer limitsVersion;
    private final NanoClock clock;
    private final Clock wallClock;

    // Confined to the thread running tick().
    private Map<ScopeBucket, Long> chargedBefore = new IdentityHashMap<>();
    private final Map<String, Integer> membersPerBucket = new HashMap<>();
    private long lastTickNanos;
    private long lastSuccessNanos;
    private boolean everSynced;
    private boolean failing;
    private List<MemberSeen> membersSeen = List.of();
    private Instant lastSync;

    private volatile int clusterSize = 1;
    private volatile ClusterStatus status;
    private ScheduledExecutorService timer;

    /**
     * @param clusterId the key prefix the Sluices sharing limits have in common, for the status
     * @param member this Sluice's name in the cluster
     * @param interval how often to sync
     * @param engine whose buckets to report and share out
     * @param store where the Sluices meet
     * @param limitsVersion told the version of the limits document in the store after every sync
     *     that reached it (0 when the store keeps none)
     */
    public ClusterSync(
            String clusterId,
            String member,
            Duration interval,
            QuotaEngine engine,
            ClusterStore store,
            LongConsumer limitsVersion,
            NanoClock clock,
            Clock wallClock) {
        this.clusterId = Objects.requireNonNull(clusterId, "clusterId");
        this.member = Objects.requireNonNull(member, "member");
        this.interval = Objects.requireNonNull(interval, "interval");
        this.engine = Objects.requireNonNull(engine, "engine");
        this.store = Objects.requireNonNull(store, "store");
        this.limitsVersion = Objects.requireNonNull(limitsVersion, "limitsVersion");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.wallClock = Objects.requireNonNull(wallClock, "wallClock");
        this.lastTickNanos = clock.nanoTime();
        this.status = new ClusterStatus(clusterId, member, SyncMode.STALE, false, null, interval, List.of(), List.of());
        // Until the first sync says otherwise, a new bucket takes an even split of the Sluices last seen.
        engine.initialShare(() -> 1.0 / clusterSize);
    }

    /** Syncs now and then every interval, on a thread of its own, until {@link #close()}. */
    public synchronized void start() {
        if (timer != null) {
            throw new IllegalStateException("already started");
        }
        timer = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread thread = new Thread(r, "sluice-cluster-sync");
            thread.setDaemon(true);
            return thread;
        });
        long millis = interval.toMillis();
        timer.scheduleWithFixedDelay(this::tickSafely, 0, millis, TimeUnit.MILLISECONDS);
    }

    /** The latest status. */
    public ClusterStatus status() {
        return status;
    }

    /** One sync: report, read back, set shares; on failure keep or fall back. */
    public void tick() {
        long now = clock.nanoTime();
        double seconds = Math.max(now - lastTickNanos, 1) / 1e9;
        lastTickNanos = now;
        List<ScopeBucket> buckets = engine.limitedBuckets();
        Map<ScopeBucket, Long> reportedBefore = chargedBefore;
        Map<ScopeBucket, Long> charged = new IdentityHashMap<>();
        Map<String, Demand> demands = new HashMap<>();
        for (ScopeBucket bucket : buckets) {
            long units = bucket.chargedUnits();
            charged.put(bucket, units);
            double usage = Math.max(units - chargedBefore.getOrDefault(bucket, 0L), 0) / seconds;
            demands.put(bucket.key().id(), demand(bucket, usage));
        }
        chargedBefore = charged;

        SyncReply reply;
        try {
            reply = store.exchange(new SyncRequest(member, demands));
        } catch (IOException | RuntimeException e) {
            failed(now, buckets, e);
            return;
        }
        // After an outage the others' reports have expired and come back one by one over the next
        // interval: shares computed now would treat the first to report as alone.
        boolean recovering = failing || !everSynced;
        if (failing) {
            log.info("Cluster store reachable again; shares follow demand from the next sync on");
            failing = false;
        }
        everSynced = true;
        lastSuccessNanos = now;
        lastSync = wallClock.instant();
        membersSeen = reply.members();
        clusterSize = Math.max(1, membersSeen.size());
        List<BucketShare> shares = new ArrayList<>(buckets.size());
        membersPerBucket.clear();
        for (ScopeBucket bucket : buckets) {
            String id = bucket.key().id();
            List<MemberDemand> reports = reply.demands().getOrDefault(id, List.of());
            int members = Math.max(1, reports.size());
            // A bucket reported for the first time keeps its initial share: the other Sluices that
            // enforce it may not have reported it yet, so being alone is not known before the next sync.
            // So does every bucket right after an outage.
            double share = reportedBefore.containsKey(bucket) && !recovering
                    ? FairShare.of(member, bucket.limitRate(), reports)
                    : bucket.share();
            bucket.share(share);
            membersPerBucket.put(id, members);
            shares.add(new BucketShare(bucket.key(), bucket.limitRate(), share, members));
        }
        status = new ClusterStatus(clusterId, member, SyncMode.SYNCED, true, lastSync, interval, membersSeen, shares);
        limitsVersion.accept(reply.limitsVersion());
    }

    /**
     * Its demand: its usage when the bucket never refused; when it did, twice its usage and at
     * least an even split of the limit more, so that a Sluice squeezed to little gets back to its
     * part within a sync or two.
     */
    private Demand demand(ScopeBucket bucket, double usage) {
        if (!bucket.takeRefused()) {
            return new Demand(usage, usage);
        }
        int members = membersPerBucket.getOrDefault(bucket.key().id(), clusterSize);
        return new Demand(usage, Math.max(2 * usage, usage + bucket.limitRate() / members));
    }

    private void failed(long now, List<ScopeBucket> buckets, Exception e) {
        if (!failing) {
            log.warn(
                    "Cluster store unreachable ({}); keeping the last shares for {} intervals",
                    e.toString(),
                    STALE_INTERVALS);
            failing = true;
        }
        boolean stale = everSynced && now - lastSuccessNanos < STALE_INTERVALS * interval.toNanos();
        List<BucketShare> shares = new ArrayList<>(buckets.size());
        for (ScopeBucket bucket : buckets) {
            int members = membersPerBucket.getOrDefault(bucket.key().id(), clusterSize);
            if (!stale) {
                bucket.share(1.0 / members);
            }
            shares.add(new BucketShare(bucket.key(), bucket.limitRate(), bucket.share(), members));
        }
        status = new ClusterStatus(
                clusterId,
                member,
                stale ? SyncMode.STALE : SyncMode.FALLBACK,
                false,
                lastSync,
                interval,
                membersSeen,
                shares);
    }

    private void tickSafely() {
        try {
            tick();
        } catch (RuntimeException e) {
            log.error("Cluster sync failed", e);
        }
    }

    /** Stops syncing; the shares stay as they are. Does not close the store. */
    @Override
    public synchronized void close() {
        if (timer != null) {
            timer.shutdownNow();
            try {
                timer.awaitTermination(5, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
