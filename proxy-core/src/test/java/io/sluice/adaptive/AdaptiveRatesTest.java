package io.sluice.adaptive;

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

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The controller against a simulated broker on a fake clock: a tenant limited adaptively floods a
 * broker whose capacity is a small part of the ceiling, while its latency is what its queue makes
 * it. Every message is decided by the tenant's bucket, as on the hot path.
 */
class AdaptiveRatesTest {

    private static final long MILLI = 1_000_000L;
    private static final long SECOND = 1_000 * MILLI;
    private static final long STEP = 10 * MILLI;
    private static final double CEILING = 1_000_000;
    private static final double CAPACITY = 150_000;
    private static final double TARGET_MILLIS = 10;
    private static final String TOPIC = "bulk/default/flood";
    private static final ScopeRef TENANT = new ScopeRef(TestScopes.TENANT, "bulk");

    private final AtomicLong now = new AtomicLong(1_000 * SECOND);
    private final NanoClock clock = now::get;
    private final LatencyWindow latency = new LatencyWindow();
    private final QuotaEngine engine = new QuotaEngine(adaptiveTenant(CEILING), clock);
    private final AdaptiveRates rates = new AdaptiveRates(engine, Map.of("test", latency), clock);
    private final QuotaDecision decision = new QuotaDecision();
    private QuotaPath path;

    /**
     * The broker: messages waiting in its queue; each takes {@code queue / capacity} plus a
     * millisecond. The queue is bounded as a broker's pending publishes and the sockets' buffers
     * bound it: past it the producer cannot write (Sluice stops reading it), so Sluice passes what
     * the broker takes, and the latency tops out at 100 ms.
     */
    private double queue;

    private static final double MAX_QUEUE = CAPACITY / 10;

    private static LimitsDocument adaptiveTenant(double ceiling) {
        return LimitsDocument.empty()
                .withLimit(
                        TENANT,
                        Limit.publish(new RateLimit(ceiling, null, 0.1, new AdaptiveLimit(TARGET_MILLIS, 0.05))));
    }

    @Test
    void aCeilingFarAboveTheBrokerBitesWithinSecondsAndHoldsTheLatencyNearItsTarget() {
        List<double[]> seconds = run(60, true);
        // What passed each second, and the p99 latency of that second.
        double firstUnderCapacity = -1;
        for (int i = 0; i < seconds.size(); i++) {
            if (seconds.get(i)[0] < CAPACITY * 1.05) {
                firstUnderCapacity = i;
                break;
            }
        }
        assertTrue(firstUnderCapacity >= 0 && firstUnderCapacity <= 3, "bit after " + firstUnderCapacity + " s");
        double passed = 0;
        int slow = 0;
        for (double[] second : seconds.subList(20, 60)) {
            passed += second[0];
            if (second[1] > 3 * TARGET_MILLIS) {
                slow++;
            }
        }
        double average = passed / 40;
        assertTrue(average > 0.6 * CAPACITY && average < 1.05 * CAPACITY, "average " + average + " msg/s");
        assertTrue(slow <= 4, slow + " of 40 seconds over three times the target");
        AdaptiveScope scope = rates.status().get(0);
        assertEquals("test", scope.protocol());
        assertEquals("tenant", scope.scope());
        assertEquals("bulk", scope.name());
        assertEquals("messages", scope.unit());
        assertEquals(CEILING, scope.ceiling());
        assertTrue(scope.effectiveRate() < CAPACITY * 1.1, "effective " + scope.effectiveRate());
    }

    @Test
    void theRateIsBackAtTheCeilingWithinSecondsOfTheFloodStopping() {
        run(30, true);
        assertTrue(rates.status().get(0).effectiveRate() < CAPACITY * 1.1);
        // An online client keeps the broker answering, quickly now.
        for (int second = 0; second < 10; second++) {
            for (int i = 0; i < 100; i++) {
                now.addAndGet(STEP);
                latency.record(MILLI, now.get());
            }
            rates.tick();
        }
        assertEquals(CEILING, rates.status().get(0).effectiveRate(), 1e-6);
    }

    @Test
    void withoutLatencyReadingsTheRateHolds() {
        run(20, true);
        // The first interval after the flood still reads its last answers: a reading spans a slot more than an
        // interval.
        now.addAndGet(SECOND);
        rates.tick();
        double before = rates.status().get(0).effectiveRate();
        for (int second = 0; second < 30; second++) {
            now.addAndGet(SECOND);
            rates.tick();
        }
        assertEquals(before, rates.status().get(0).effectiveRate(), 1e-6);
        assertNull(rates.status().get(0).latencyP99Millis());
    }

    /**
     * A broker that stalls and answers only in a short burst just after each reading, slowly: every
     * answer still falls in some interval's reading, so the rate falls.
     */
    @Test
    void aBrokerAnsweringOnlyJustAfterEachReadingIsSeenSlow() {
        QuotaPath flood = engine.publishPath(TestScopes.topic(TOPIC));
        rates.tick();
        for (int second = 0; second < 5; second++) {
            now.addAndGet(50 * MILLI);
            assertTrue(flood.tryAcquire(now.get(), 1_000, 0, decision));
            for (int i = 0; i < 1_000; i++) {
                latency.record(900 * MILLI, now.get());
            }
            now.addAndGet(950 * MILLI);
            rates.tick();
        }
        assertTrue(
                rates.status().get(0).effectiveRate() < CEILING / 10,
                "rate in force " + rates.status().get(0).effectiveRate());
    }

    @Test
    void aRefusalByTheLoweredRateSaysAdaptiveAndALimitNoLongerAdaptiveGetsItsCeilingBack() {
        run(10, true);
        QuotaPath flood = engine.publishPath(TestScopes.topic(TOPIC));
        while (flood.tryAcquire(now.get(), 100, 0, decision)) {
            // Empty the bucket.
        }
        assertEquals("adaptive", decision.reason());
        assertTrue(decision.rejectMessage().contains("adaptive rate"), decision.rejectMessage());

        engine.update(LimitsDocument.empty().withLimit(TENANT, Limit.publish(new RateLimit(CEILING, null, 0.1, null))));
        rates.tick();
        assertTrue(rates.status().isEmpty());
        now.addAndGet(SECOND);
        QuotaPath fixed = engine.publishPath(TestScopes.topic(TOPIC));
        assertTrue(fixed.tryAcquire(now.get(), 99_000, 0, decision), "the whole ceiling's burst is back");
        while (fixed.tryAcquire(now.get(), 1_000, 0, decision)) {
            // Empty the bucket.
        }
        assertEquals("publish_messages", decision.reason());
    }

    /**
     * {@code seconds} of a flood (or none), the controller ticking every second; returns what
     * passed and the p99 latency of each second.
     */
    private List<double[]> run(int seconds, boolean flood) {
        List<double[]> figures = new ArrayList<>();
        for (int second = 0; second < seconds; second++) {
            long passed = 0;
            List<Double> latencies = new ArrayList<>();
            for (int step = 0; step < SECOND / STEP; step++) {
                now.addAndGet(STEP);
                if (path == null || !path.isCurrent(now.get())) {
                    path = engine.publishPath(TestScopes.topic(TOPIC));
                }
                long admitted = 0;
                while (flood
                        && admitted < CEILING * STEP / SECOND
                        && queue + admitted < MAX_QUEUE
                        && path.tryAcquire(now.get(), 100, 0, decision)) {
                    admitted += 100;
                }
                passed += admitted;
                queue += admitted;
                double served = Math.min(queue, CAPACITY * STEP / SECOND);
                queue -= served;
                double millis = 1 + queue / CAPACITY * 1000;
                for (int batch = 0; batch < Math.max(1, served / 1000); batch++) {
                    latency.record((long) (millis * MILLI), now.get());
                }
                latencies.add(millis);
            }
            rates.tick();
            latencies.sort(Double::compare);
            figures.add(new double[] {passed, latencies.get((int) (latencies.size() * 0.99) - 1)});
            if (Boolean.getBoolean("adaptive.trace")) {
                System.out.printf(
                        "%3d s: passed %8d, p99 %6.1f ms, rate %9.0f%n",
                        second,
                        passed,
                        figures.get(second)[1],
                        rates.status().isEmpty() ? 0 : rates.status().get(0).effectiveRate());
            }
        }
        return figures;
    }
}
