package io.sluice.cluster;

import io.sluice.limits.Limit;
import io.sluice.limits.LimitsDocument;
import io.sluice.limits.RateLimit;
import io.sluice.limits.ScopeRef;
import io.sluice.limits.TestScopes;
import io.sluice.quota.NanoClock;
import io.sluice.quota.QuotaDecision;
import io.sluice.quota.QuotaEngine;
import io.sluice.quota.QuotaPath;
import org.junit.jupiter.api.Test;

import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Three Sluices sharing a namespace limit of 1,000 msg/s through a store in memory, on a fake
 * clock: producers that want more than the limit, a shift of load from one Sluice to another, and
 * a store outage. Every message is decided by its Sluice's own bucket, as on the hot path.
 */
class ClusterSyncTest {

    private static final long MILLI = 1_000_000L;
    private static final long SECOND = 1_000 * MILLI;
    private static final Duration INTERVAL = Duration.ofSeconds(1);
    private static final double LIMIT = 1000;
    private static final String TOPIC = "public/default/orders";
    /** Sends a producer keeps waiting at most; it skips what would go beyond, so a changed load applies at once. */
    private static final double CLIENT_QUEUE = 100;

    private final AtomicLong now = new AtomicLong(5_000 * SECOND);
    private final NanoClock clock = now::get;
    private final InMemoryClusterStore store = new InMemoryClusterStore(clock, INTERVAL);
    private final List<Sluice> sluices = new ArrayList<>();
    private final List<Long> admittedPerSecond = new ArrayList<>();

    private static LimitsDocument namespaceLimit(double messagesPerSecond) {
        return LimitsDocument.empty()
                .withLimit(
                        new ScopeRef(TestScopes.NAMESPACE, "public/default"),
                        Limit.publish(new RateLimit(messagesPerSecond, null, null, null)));
    }

    /** One Sluice: its engine, its sync (ticking at its own phase of the interval) and its producer's offered rate. */
    private final class Sluice {
        final QuotaEngine engine = new QuotaEngine(namespaceLimit(LIMIT), clock);
        final ClusterSync sync;
        final long phaseNanos;
        final QuotaDecision decision = new QuotaDecision();
        QuotaPath path;
        double offered;
        double waiting;
        long admitted;

        Sluice(String name, long phaseNanos) {
            this.sync = new ClusterSync("test", name, INTERVAL, engine, store, version -> {}, clock, Clock.systemUTC());
            this.phaseNanos = phaseNanos;
        }

        void step(long stepNanos) {
            waiting = Math.min(waiting + offered * stepNanos / SECOND, CLIENT_QUEUE);
            if (offered == 0 && path == null) {
                return;
            }
            if (path == null || !path.isCurrent(now.get())) {
                path = engine.publishPath(TestScopes.topic(TOPIC));
            }
            while (waiting >= 1 && path.tryAcquire(now.get(), 1, 100, decision)) {
                waiting--;
                admitted++;
            }
        }
    }

    private void start(double... offered) {
        for (int i = 0; i < offered.length; i++) {
            Sluice sluice = new Sluice("sluice-" + i, i * 330 * MILLI);
            sluice.offered = offered[i];
            sluices.add(sluice);
        }
    }

    private void offer(double... offered) {
        for (int i = 0; i < offered.length; i++) {
            sluices.get(i).offered = offered[i];
        }
    }

    /** Runs {@code seconds} in steps of 10 ms; each Sluice syncs once a second at its phase. */
    private void run(int seconds) {
        long step = 10 * MILLI;
        for (int s = 0; s < seconds; s++) {
            long before = sluices.stream().mapToLong(x -> x.admitted).sum();
            for (long t = 0; t < SECOND; t += step) {
                for (Sluice sluice : sluices) {
                    if ((now.get() - sluice.phaseNanos) % SECOND == 0) {
                        sluice.sync.tick();
                    }
                    sluice.step(step);
                }
                now.addAndGet(step);
            }
            admittedPerSecond.add(sluices.stream().mapToLong(x -> x.admitted).sum() - before);
        }
    }

    @org.junit.jupiter.api.AfterEach
    void printTheAggregate(org.junit.jupiter.api.TestInfo test) {
        System.out.println(test.getDisplayName() + " admitted per second: " + admittedPerSecond);
    }

    private long admittedOver(int fromSecond, int seconds) {
        return admittedPerSecond.subList(fromSecond, fromSecond + seconds).stream()
                .mapToLong(Long::longValue)
                .sum();
    }

    @Test
    void theAggregateFollowsTheLimitAndConvergesWithinThreeIntervalsOfAShift() {
        start(1200, 150, 150);
        run(20);
        long steady = admittedOver(10, 10);
        assertEquals(10 * LIMIT, steady, 0.05 * 10 * LIMIT, "80/10/10, 10 s once converged: " + admittedPerSecond);

        offer(150, 150, 1200);
        run(15);
        long shifted = admittedOver(20 + 3, 10);
        assertEquals(
                10 * LIMIT,
                shifted,
                0.05 * 10 * LIMIT,
                "10/10/80, 10 s from 3 intervals after the shift: " + admittedPerSecond);
        for (int s = 23; s < 35; s++) {
            assertEquals(LIMIT, admittedPerSecond.get(s), 0.1 * LIMIT, "second " + s + ": " + admittedPerSecond);
        }
        assertTrue(
                sluices.get(2).sync.status().shares().get(0).share() > 0.6,
                "the busy Sluice has most of the limit now");
        assertEquals(SyncMode.SYNCED, sluices.get(0).sync.status().mode());
        assertEquals(3, sluices.get(0).sync.status().members().size());
    }

    @Test
    void duringAnOutageTheLastSharesStayThenTheLimitIsSplitEvenlyAndNeverExceeded() {
        start(1200, 150, 150);
        run(10);
        double busyShare = sluices.get(0).sync.status().shares().get(0).share();

        store.down = true;
        run(2);
        assertEquals(SyncMode.STALE, sluices.get(0).sync.status().mode());
        assertEquals(busyShare, sluices.get(0).sync.status().shares().get(0).share(), "the last share stays");
        run(8);
        ClusterStatus fallback = sluices.get(0).sync.status();
        assertEquals(SyncMode.FALLBACK, fallback.mode());
        assertEquals(1.0 / 3, fallback.shares().get(0).share(), 1e-9, "an even split among the 3 Sluices last seen");
        for (int s = 10; s < 20; s++) {
            assertTrue(admittedPerSecond.get(s) <= 1.10 * LIMIT, "second " + s + ": " + admittedPerSecond);
            assertTrue(
                    admittedPerSecond.get(s) > 0.4 * LIMIT, "traffic goes on, second " + s + ": " + admittedPerSecond);
        }

        store.down = false;
        run(13);
        assertEquals(SyncMode.SYNCED, sluices.get(0).sync.status().mode());
        assertEquals(10 * LIMIT, admittedOver(23, 10), 0.05 * 10 * LIMIT, "converged again: " + admittedPerSecond);
    }

    @Test
    void aLimitOnlyOneSluiceEnforcesNeedsNoSharing() {
        start(1500, 0, 0);
        run(5);
        for (Sluice sluice : sluices.subList(1, 3)) {
            assertTrue(sluice.sync.status().shares().isEmpty(), "no traffic there, no bucket");
        }
        assertEquals(1.0, sluices.get(0).sync.status().shares().get(0).share());
        assertEquals(1, sluices.get(0).sync.status().shares().get(0).members());
        assertEquals(LIMIT, admittedPerSecond.get(4), 0.02 * LIMIT);
    }

    @Test
    void aNewBucketTakesAnEvenSplitAmongTheSluicesSeenUntilItsFirstSync() {
        start(0, 0, 0);
        run(2);
        offer(2000, 2000, 2000);
        run(1);
        assertTrue(
                admittedPerSecond.get(2) <= 2.05 * LIMIT,
                "no more than one Sluice alone lets through in its first second, its burst and its rate: "
                        + admittedPerSecond);
        run(3);
        assertEquals(LIMIT, admittedPerSecond.get(5), 0.05 * LIMIT, admittedPerSecond.toString());
    }
}
