package io.sluice.cluster;

import io.sluice.adaptive.AdaptiveRates;
import io.sluice.admission.LatencyWindow;
import io.sluice.limits.AdaptiveLimit;
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
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Three Sluices sharing an adaptive tenant limit through a store in memory, in front of one
 * simulated broker whose capacity is a small part of the ceiling, on a fake clock. Each adapts on
 * the latency it measures (the broker's, the same for all) and takes its share of the rate in force;
 * together they hold the broker near its capacity (96 % in this run, within 5 % either side from
 * second to second) and do not swing against each other.
 */
class AdaptiveClusterTest {

    private static final long MILLI = 1_000_000L;
    private static final long SECOND = 1_000 * MILLI;
    private static final long STEP = 10 * MILLI;
    private static final Duration INTERVAL = Duration.ofSeconds(1);
    private static final double CEILING = 1_000_000;
    private static final double CAPACITY = 150_000;
    /** Pending publishes the broker and the sockets hold: past it producers cannot write. */
    private static final double MAX_QUEUE = CAPACITY / 10;

    private static final ScopeRef TENANT = new ScopeRef(TestScopes.TENANT, "bulk");

    private final AtomicLong now = new AtomicLong(2_000 * SECOND);
    private final NanoClock clock = now::get;
    private final InMemoryClusterStore store = new InMemoryClusterStore(clock, INTERVAL);
    private final LatencyWindow brokerLatency = new LatencyWindow();
    private final List<Sluice> sluices = new ArrayList<>();
    private double queue;

    /** One Sluice: its engine, cluster sync and adaptive controller, ticking at its own phase, and its producer's demand. */
    private final class Sluice {
        final QuotaEngine engine = new QuotaEngine(adaptiveTenant(), clock);
        final ClusterSync sync;
        final AdaptiveRates adaptive;
        final long phaseNanos;
        final double offered;
        final QuotaDecision decision = new QuotaDecision();
        QuotaPath path;

        Sluice(String name, long phaseNanos, double offered) {
            this.sync = new ClusterSync("test", name, INTERVAL, engine, store, version -> {}, clock, Clock.systemUTC());
            this.adaptive = new AdaptiveRates(engine, Map.of("test", brokerLatency), clock);
            this.phaseNanos = phaseNanos;
            this.offered = offered;
        }

        /** What this Sluice lets through in one step, at most its producer's demand and what the broker has room for. */
        long step(double room) {
            if (path == null || !path.isCurrent(now.get())) {
                path = engine.publishPath(TestScopes.topic("bulk/default/flood"));
            }
            long admitted = 0;
            double wanted = Math.min(offered * STEP / SECOND, room);
            while (admitted + 100 <= wanted && path.tryAcquire(now.get(), 100, 0, decision)) {
                admitted += 100;
            }
            return admitted;
        }

        double rateInForce() {
            return adaptive.status().isEmpty()
                    ? CEILING
                    : adaptive.status().get(0).effectiveRate();
        }
    }

    private static LimitsDocument adaptiveTenant() {
        return LimitsDocument.empty()
                .withLimit(TENANT, Limit.publish(new RateLimit(CEILING, null, 0.1, new AdaptiveLimit(10.0, 0.05))));
    }

    @Test
    void threeSluicesTogetherHoldTheBrokerNearItsCapacityWithoutSwingingAgainstEachOther() {
        // 80/10/10 of a demand far above the broker.
        sluices.add(new Sluice("sluice-0", 0, 800_000));
        sluices.add(new Sluice("sluice-1", 330 * MILLI, 100_000));
        sluices.add(new Sluice("sluice-2", 660 * MILLI, 100_000));
        List<Long> passedPerSecond = new ArrayList<>();
        for (int second = 0; second < 60; second++) {
            long passed = 0;
            for (long t = 0; t < SECOND; t += STEP) {
                for (Sluice sluice : sluices) {
                    if ((now.get() - sluice.phaseNanos) % SECOND == 0) {
                        sluice.sync.tick();
                        sluice.adaptive.tick();
                    }
                    long admitted = sluice.step(MAX_QUEUE - queue);
                    queue += admitted;
                    passed += admitted;
                }
                double served = Math.min(queue, CAPACITY * STEP / SECOND);
                queue -= served;
                long millis = (long) ((1 + queue / CAPACITY * 1000) * MILLI);
                for (int batch = 0; batch < Math.max(1, served / 1000); batch++) {
                    brokerLatency.record(millis, now.get());
                }
                now.addAndGet(STEP);
            }
            passedPerSecond.add(passed);
        }
        System.out.println("three adaptive Sluices, passed per second: " + passedPerSecond);

        double total = 0;
        for (long passed : passedPerSecond.subList(20, 60)) {
            total += passed;
        }
        double average = total / 40;
        assertTrue(average > 0.85 * CAPACITY && average <= CAPACITY, "average " + average + " msg/s");
        for (int second = 20; second < 60; second++) {
            // Sluices that swung against each other (one cutting while another climbs) would make the
            // aggregate swing; it stays within a tenth of its mean.
            assertTrue(
                    Math.abs(passedPerSecond.get(second) - average) <= 0.1 * average,
                    "second " + second + ": " + passedPerSecond);
        }
        for (Sluice sluice : sluices) {
            assertTrue(
                    sluice.rateInForce() < CEILING / 4,
                    "every Sluice adapted, the rates in force: "
                            + sluices.stream().map(Sluice::rateInForce).toList());
        }
    }
}
