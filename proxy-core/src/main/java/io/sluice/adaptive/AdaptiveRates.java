package io.sluice.adaptive;

import io.sluice.admission.LatencyWindow;
import io.sluice.limits.AdaptiveLimit;
import io.sluice.limits.Direction;
import io.sluice.limits.Limit;
import io.sluice.limits.LimitsDocument;
import io.sluice.limits.RateLimit;
import io.sluice.quota.NanoClock;
import io.sluice.quota.QuotaEngine;
import io.sluice.quota.ScopeBucket;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * Runs every adaptive limit's {@link AdaptiveLaw} once an {@link #INTERVAL}, off the hot path: for
 * each publish bucket whose limit is adaptive, it reads what the bucket passed since the last
 * interval and the p99 publish latency of the scope's upstream in that interval, and sets the part
 * of the ceiling in force ({@link ScopeBucket#adapt}). Messages are still decided by the buckets
 * alone; a bucket whose limit is no longer adaptive gets its whole ceiling back.
 *
 * <p>Each protocol's upstream has its own latency ({@code latencies}): a slow Kafka cluster does not
 * hold back Pulsar topics. The proxy scope, which covers every protocol, follows the slowest.
 * Latency is from forwarding to the broker's answer, so time a message was held in Sluice never
 * counts.
 *
 * <p>With a cluster store each Sluice adapts on what it measures; its share of the limit is taken
 * of the rate in force (the bucket's rate is {@code ceiling x fraction x share}).
 *
 * <p>{@link #tick()} runs on one thread at a time (the controller's own, or a test's);
 * {@link #status()} may be read from any.
 */
public final class AdaptiveRates implements AutoCloseable {

    /** How often the law runs, and the span of latency it reads. */
    public static final Duration INTERVAL = Duration.ofSeconds(1);

    private static final Logger log = LoggerFactory.getLogger(AdaptiveRates.class);

    private final QuotaEngine engine;
    private final Map<String, LatencyWindow> latencies;
    private final NanoClock clock;

    // Confined to the thread running tick().
    private Map<ScopeBucket, Tracked> tracked = new IdentityHashMap<>();
    private long lastTickNanos;

    private volatile List<AdaptiveScope> status = List.of();
    private ScheduledThreadPoolExecutor timer;

    /**
     * @param latencies each protocol's upstream publish latency, by protocol name
     *     ({@link io.sluice.limits.ScopeKind#protocol()}), recorded by its front end
     */
    public AdaptiveRates(QuotaEngine engine, Map<String, LatencyWindow> latencies, NanoClock clock) {
        this.engine = Objects.requireNonNull(engine, "engine");
        this.latencies = Map.copyOf(latencies);
        this.clock = Objects.requireNonNull(clock, "clock");
        this.lastTickNanos = clock.nanoTime();
    }

    /** Runs the law every interval on a daemon thread of its own until {@link #close()}. */
    public synchronized void start() {
        if (timer != null) {
            throw new IllegalStateException("already started");
        }
        timer = new ScheduledThreadPoolExecutor(1, task -> {
            Thread thread = new Thread(task, "sluice-adaptive-rates");
            thread.setDaemon(true);
            return thread;
        });
        timer.setExecuteExistingDelayedTasksAfterShutdownPolicy(false);
        long millis = INTERVAL.toMillis();
        timer.scheduleWithFixedDelay(this::tickSafely, millis, millis, TimeUnit.MILLISECONDS);
    }

    /** Every adaptive limit's state after the last interval. */
    public List<AdaptiveScope> status() {
        return status;
    }

    /** One interval: every adaptive bucket's rate set from what it passed and its upstream's latency. */
    public void tick() {
        long now = clock.nanoTime();
        double seconds = Math.max(now - lastTickNanos, 1) / 1e9;
        lastTickNanos = now;
        LimitsDocument limits = engine.limits();
        Map<ScopeBucket, Tracked> next = new IdentityHashMap<>();
        List<AdaptiveScope> scopes = new ArrayList<>();
        for (ScopeBucket bucket : engine.limitedBuckets()) {
            AdaptiveLimit adaptive = adaptiveLimit(limits, bucket);
            if (adaptive == null) {
                if (bucket.adaptiveFraction() < 1) {
                    bucket.adapt(1);
                }
                continue;
            }
            long charged = bucket.chargedUnits();
            Tracked before = tracked.get(bucket);
            // A bucket seen for the first time was made during the interval: what it was charged is all new.
            AdaptiveLaw.State state = before == null ? AdaptiveLaw.State.at(bucket.adaptiveFraction()) : before.state();
            long chargedBefore = before == null ? 0 : before.charged();
            double passed = Math.max(charged - chargedBefore, 0) / seconds / (bucket.limitRate() * bucket.share());
            String protocol = bucket.key().scope().kind().protocol();
            double latency = latencyMillis(protocol, now);
            AdaptiveLaw.Step step =
                    AdaptiveLaw.next(state, passed, latency, adaptive.targetLatencyMillis(), adaptive.floorFraction());
            if (step.state().fraction() != bucket.adaptiveFraction()) {
                bucket.adapt(step.state().fraction());
            }
            next.put(bucket, new Tracked(step.state(), charged));
            scopes.add(new AdaptiveScope(
                    protocol == null ? "proxy" : protocol,
                    bucket.key().scope().kind().label(),
                    bucket.key().scope().name(),
                    bucket.key().dimension().name().toLowerCase(Locale.ROOT),
                    bucket.limitRate(),
                    bucket.limitRate() * step.state().fraction(),
                    Double.isNaN(latency) ? null : latency,
                    adaptive.targetLatencyMillis(),
                    adaptive.floorFraction(),
                    step.direction().name().toLowerCase(Locale.ROOT)));
        }
        tracked = next;
        status = List.copyOf(scopes);
    }

    @Override
    public synchronized void close() {
        if (timer != null) {
            timer.shutdownNow();
            timer = null;
        }
    }

    private void tickSafely() {
        try {
            tick();
        } catch (RuntimeException e) {
            // The next interval tries again; the rates in force stay as they are meanwhile.
            log.warn("Adaptive limits: an interval failed, rates unchanged: {}", e.toString());
        }
    }

    /** The adaptive part of {@code bucket}'s limit in force, or null when it is not an adaptive publish limit. */
    private static AdaptiveLimit adaptiveLimit(LimitsDocument limits, ScopeBucket bucket) {
        if (bucket.key().direction() != Direction.PUBLISH) {
            return null;
        }
        Limit limit = limits.limitInForce(bucket.key().scope());
        RateLimit publish = limit == null ? null : limit.publish();
        return publish == null ? null : publish.adaptive();
    }

    /**
     * The p99 publish latency of {@code protocol}'s upstream over the last interval, in
     * milliseconds; for the proxy scope ({@code null}) the slowest upstream's. NaN when nothing was
     * answered.
     *
     * <p>The reading spans one slot more than an interval (1 to 1.25 s with the default window), so
     * that every answer falls in some interval's reading. Spanning less would leave a blind stretch
     * between readings: a broker that stalls and answers only in short bursts, each just after a
     * reading, would never be seen slow. An answer read by two intervals cannot cut twice, since the
     * interval after a cut holds.
     */
    private double latencyMillis(String protocol, long now) {
        double slowest = Double.NaN;
        for (Map.Entry<String, LatencyWindow> upstream : latencies.entrySet()) {
            if (protocol != null && !protocol.equals(upstream.getKey())) {
                continue;
            }
            LatencyWindow window = upstream.getValue();
            int slots = (int) (INTERVAL.toNanos() / window.slotNanos()) + 1;
            long p99 = window.quantileNanos(0.99, now, slots);
            if (p99 >= 0 && (Double.isNaN(slowest) || p99 / 1e6 > slowest)) {
                slowest = p99 / 1e6;
            }
        }
        return slowest;
    }

    /** A bucket's law state and its charged units at the last interval. */
    private record Tracked(AdaptiveLaw.State state, long charged) {}
}
