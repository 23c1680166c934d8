package io.sluice.quota;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class QuotaEngineTest {

    private static final long SECOND = 1_000_000_000L;
    private static final long MILLI = 1_000_000L;
    private static final String ORDERS = "persistent://public/default/orders";
    private static final String PAYMENTS = "persistent://public/default/payments";

    private final FakeClock clock = new FakeClock();
    private final QuotaDecision decision = new QuotaDecision();

    private static Limit publish(Double messagesPerSecond, Double bytesPerSecond, OnExceed onExceed) {
        return new Limit(new RateLimit(messagesPerSecond, bytesPerSecond, null), null, onExceed);
    }

    /** Sends single messages of {@code bytes} until refused; returns how many got through. */
    private int drain(QuotaPath path, long bytes) {
        int admitted = 0;
        while (path.tryAcquire(clock.nanoTime(), 1, bytes, decision)) {
            admitted++;
        }
        return admitted;
    }

    @Test
    void noLimitsMeansAnEmptyPathThatAlwaysAdmits() {
        QuotaEngine engine = new QuotaEngine(LimitsDocument.empty(), clock);
        QuotaPath path = engine.publishPath(ORDERS);
        assertTrue(path.isUnlimited());
        assertEquals(ORDERS, path.topic());
        for (int i = 0; i < 1000; i++) {
            assertTrue(path.tryAcquire(clock.nanoTime(), 1000, 1 << 20, decision));
        }
        assertEquals(0, path.waitNanos(clock.nanoTime()));
        assertEquals(0, engine.liveBucketCount());
    }

    @Test
    void onlyTheLimitedDirectionGetsBuckets() {
        LimitsDocument limits = LimitsDocument.empty().withTopic(ORDERS, publish(10.0, null, null));
        QuotaEngine engine = new QuotaEngine(limits, clock);
        assertFalse(engine.publishPath(ORDERS).isUnlimited());
        assertTrue(engine.dispatchPath(ORDERS).isUnlimited());
        assertTrue(engine.publishPath(PAYMENTS).isUnlimited());
    }

    @Test
    void twoTopicsShareTheirNamespaceLimit() {
        LimitsDocument limits = LimitsDocument.empty()
                .withTopic(ORDERS, publish(100.0, null, null))
                .withNamespace("public/default", publish(150.0, null, null));
        QuotaEngine engine = new QuotaEngine(limits, clock);

        assertEquals(100, drain(engine.publishPath(ORDERS), 10));
        assertEquals(Scope.TOPIC, decision.scope());
        assertEquals(50, drain(engine.publishPath(PAYMENTS), 10), "the namespace has 50 left");
        assertEquals(Scope.NAMESPACE, decision.scope());
        assertEquals("public/default", decision.scopeName());
    }

    @Test
    void aTopicLimitIsSharedAcrossConnections() {
        QuotaEngine engine = new QuotaEngine(LimitsDocument.empty().withTopic(ORDERS, publish(10.0, null, null)), clock);
        QuotaPath first = engine.publishPath(ORDERS);
        QuotaPath second = engine.publishPath(ORDERS);
        assertEquals(6, drain(first, 1) - 4);
        assertEquals(0, drain(second, 1));
        assertEquals(1, engine.liveBucketCount());
    }

    @Test
    void tenantAndProxyScopesNestToo() {
        LimitsDocument limits = LimitsDocument.empty()
                .withTenant("public", publish(30.0, null, null))
                .withProxy(publish(null, 1000.0, null));
        QuotaEngine engine = new QuotaEngine(limits, clock);
        assertEquals(30, drain(engine.publishPath(ORDERS), 1));
        assertEquals(Scope.TENANT, decision.scope());
        assertEquals("public", decision.scopeName());
        assertEquals(10, drain(engine.publishPath("persistent://other/ns/x"), 100), "1000 bytes of proxy limit left");
        assertEquals(Scope.PROXY, decision.scope());
        assertEquals(Scope.PROXY_NAME, decision.scopeName());
        assertEquals(Dimension.BYTES, decision.dimension());
        assertEquals(0, drain(engine.publishPath("not a topic name"), 1), "a bad name still meets the proxy limit");
    }

    @Test
    void partitionsAggregateUnderTheBaseNameAndMayHaveTheirOwnLimit() {
        String partition0 = ORDERS + "-partition-0";
        String partition1 = ORDERS + "-partition-1";
        LimitsDocument limits = LimitsDocument.empty()
                .withTopic(ORDERS, publish(100.0, null, OnExceed.DELAY))
                .withTopic(partition1, publish(30.0, null, OnExceed.REJECT));
        QuotaEngine engine = new QuotaEngine(limits, clock);

        assertEquals(30, drain(engine.publishPath(partition1), 1));
        assertEquals(partition1, decision.scopeName());
        assertEquals(OnExceed.REJECT, decision.onExceed());
        assertEquals(70, drain(engine.publishPath(partition0), 1), "the base name's limit covers both partitions");
        assertEquals(ORDERS, decision.scopeName());
        assertEquals(OnExceed.DELAY, decision.onExceed());
    }

    @Test
    void theMostSpecificExceededScopeDecidesAndTheWaitCoversAll() {
        LimitsDocument limits = LimitsDocument.empty()
                .withTopic(ORDERS, publish(10.0, null, OnExceed.NOTIFY))
                .withNamespace("public/default", publish(5.0, null, OnExceed.REJECT));
        QuotaEngine engine = new QuotaEngine(limits, clock);
        QuotaPath path = engine.publishPath(ORDERS);
        long now = clock.nanoTime();
        assertTrue(path.tryAcquire(now, 20, 0, decision), "a batch is admitted while every balance is positive");
        assertFalse(path.tryAcquire(now, 1, 0, decision));

        // Both are exceeded: the topic is 10 in debt (1 s to repay), the namespace 15 (3 s).
        assertEquals(Scope.TOPIC, decision.scope());
        assertEquals(ORDERS, decision.scopeName());
        assertEquals(OnExceed.NOTIFY, decision.onExceed());
        assertEquals(Dimension.MESSAGES, decision.dimension());
        assertEquals(10.0, decision.rate());
        assertEquals(Direction.PUBLISH, decision.direction());
        assertEquals(3 * SECOND + 1, decision.waitNanos());
        assertEquals(3 * SECOND + 1, path.waitNanos(now));
        assertEquals(3001, decision.retryAfterMillis());

        clock.advance(2 * SECOND);
        assertFalse(path.tryAcquire(clock.nanoTime(), 1, 0, decision));
        assertEquals(Scope.NAMESPACE, decision.scope(), "the topic has recovered, the namespace has not");
        assertEquals(OnExceed.REJECT, decision.onExceed());
        assertEquals(SECOND + 1, decision.waitNanos());
        clock.advance(SECOND + 1);
        assertTrue(path.tryAcquire(clock.nanoTime(), 1, 0, decision));
    }

    @Test
    void aRefusalChargesNoScope() {
        LimitsDocument limits = LimitsDocument.empty()
                .withTopic(ORDERS, publish(100.0, null, null))
                .withNamespace("public/default", publish(10.0, null, null));
        QuotaEngine engine = new QuotaEngine(limits, clock);
        assertEquals(10, drain(engine.publishPath(ORDERS), 1));
        for (int i = 0; i < 1000; i++) {
            assertFalse(engine.publishPath(ORDERS).tryAcquire(clock.nanoTime(), 1, 0, decision));
        }
        // Had the refused attempts been charged to the topic, it would now be far in debt.
        engine.update(limits.withNamespace("public/default", null));
        assertEquals(90, drain(engine.publishPath(ORDERS), 1));
    }

    @Test
    void bytesAndMessagesAreCountedSeparately() {
        QuotaEngine engine = new QuotaEngine(LimitsDocument.empty().withTopic(ORDERS, publish(1000.0, 10_000.0, null)), clock);
        assertEquals(10, drain(engine.publishPath(ORDERS), 1000));
        assertEquals(Dimension.BYTES, decision.dimension());
        assertEquals(10_000.0, decision.rate());
    }

    @Test
    void dispatchUsesDispatchLimitsAndChargeTakesWhatWentThrough() {
        Limit limit = new Limit(null, new RateLimit(null, 1000.0, null), null);
        QuotaEngine engine = new QuotaEngine(LimitsDocument.empty().withNamespace("public/default", limit), clock);
        QuotaPath path = engine.dispatchPath(ORDERS);
        assertTrue(path.tryAcquire(clock.nanoTime(), 100, 0, decision), "permits pass while the bytes balance is positive");
        path.charge(clock.nanoTime(), 0, 3000);
        assertFalse(path.tryAcquire(clock.nanoTime(), 100, 0, decision));
        assertEquals(Direction.DISPATCH, decision.direction());
        assertEquals(2 * SECOND + 1, decision.waitNanos());
        assertTrue(engine.publishPath(ORDERS).isUnlimited());
    }

    @Test
    void formatsTheRejectMessage() {
        QuotaEngine engine = new QuotaEngine(LimitsDocument.empty().withTopic(ORDERS, publish(500.0, null, OnExceed.REJECT)), clock);
        QuotaPath path = engine.publishPath(ORDERS);
        path.tryAcquire(clock.nanoTime(), 506, 0, decision);
        assertFalse(path.tryAcquire(clock.nanoTime(), 1, 0, decision));
        assertEquals("throttled: topic persistent://public/default/orders exceeds 500.0 msg/s; retry after 13 ms",
                decision.rejectMessage());

        engine.update(LimitsDocument.empty().withNamespace("public/default", publish(null, 1.5e7, null)));
        QuotaPath bytes = engine.publishPath(ORDERS);
        bytes.tryAcquire(clock.nanoTime(), 1, 15_000_000, decision);
        assertFalse(bytes.tryAcquire(clock.nanoTime(), 1, 1, decision));
        assertEquals("throttled: namespace public/default exceeds 15000000.0 bytes/s; retry after 1 ms", decision.rejectMessage());
    }

    @Test
    void anUpdateTakesEffectAtOnceAndBumpsTheVersion() {
        LimitsDocument slow = LimitsDocument.empty().withTopic(ORDERS, publish(10.0, null, null));
        QuotaEngine engine = new QuotaEngine(slow, clock);
        assertEquals(0, engine.version());
        assertSame(slow, engine.limits());
        QuotaPath before = engine.publishPath(ORDERS);
        assertTrue(before.isCurrent(clock.nanoTime()));
        assertEquals(10, drain(before, 1));

        LimitsDocument fast = slow.withTopic(ORDERS, publish(50.0, null, OnExceed.REJECT));
        engine.update(fast);
        assertEquals(1, engine.version());
        assertSame(fast, engine.limits());
        assertFalse(before.isCurrent(clock.nanoTime()), "paths see the change");
        QuotaPath after = engine.publishPath(ORDERS);
        assertTrue(after.isCurrent(clock.nanoTime()));
        assertEquals(50, drain(after, 1), "a new limit value gets a new, full bucket");
        assertEquals(OnExceed.REJECT, decision.onExceed());

        engine.update(engine.limits().withTopic(ORDERS, null));
        assertEquals(2, engine.version());
        assertTrue(engine.publishPath(ORDERS).isUnlimited());
    }

    @Test
    void anUnchangedLimitKeepsItsBucketAcrossUpdates() {
        LimitsDocument limits = LimitsDocument.empty().withTopic(ORDERS, publish(10.0, null, OnExceed.DELAY));
        QuotaEngine engine = new QuotaEngine(limits, clock);
        assertEquals(10, drain(engine.publishPath(ORDERS), 1));
        engine.update(limits.withTopic(ORDERS, publish(10.0, null, OnExceed.REJECT)).withTenant("other", publish(1.0, null, null)));
        assertEquals(0, drain(engine.publishPath(ORDERS), 1), "same rates, same bucket: no free refill");
        assertEquals(OnExceed.REJECT, decision.onExceed(), "the new action applies at once");
    }

    @Test
    void aRejectedDocumentChangesNothing() {
        LimitsDocument limits = LimitsDocument.empty().withTopic(ORDERS, publish(10.0, null, null));
        QuotaEngine engine = new QuotaEngine(limits, clock);
        byte[] bad = """
                {"topics": {"persistent://public/default/orders": {"publish": {"messagesPerSecond": 1000}},
                            "persistent://public/default/payments": {"publish": {"messagesPerSecond": -1}}}}"""
                .getBytes(StandardCharsets.UTF_8);
        byte[] copy = bad.clone();
        assertThrows(InvalidLimitsException.class, () -> engine.update(LimitsJson.parseDocument(bad)));
        assertSame(limits, engine.limits());
        assertEquals(0, engine.version());
        assertEquals(new String(copy, StandardCharsets.UTF_8), new String(bad, StandardCharsets.UTF_8));
        assertEquals(10, drain(engine.publishPath(ORDERS), 1));
    }

    @Test
    void aPathGoesStaleAfterASecond() {
        QuotaEngine engine = new QuotaEngine(LimitsDocument.empty(), clock);
        QuotaPath path = engine.publishPath(ORDERS);
        assertTrue(path.isCurrent(clock.nanoTime() + SECOND - 1));
        assertFalse(path.isCurrent(clock.nanoTime() + SECOND));
    }

    @Test
    void idleBucketsExpireAndBucketsInUseDoNot() {
        LimitsDocument limits = LimitsDocument.empty()
                .withTopic(ORDERS, publish(10.0, 1000.0, null))
                .withTopic(PAYMENTS, publish(10.0, null, null));
        QuotaEngine engine = new QuotaEngine(limits, clock, Duration.ofMinutes(10));
        QuotaPath orders = engine.publishPath(ORDERS);
        engine.publishPath(PAYMENTS);
        assertEquals(3, engine.liveBucketCount());
        assertEquals(10, drain(orders, 1));

        // ORDERS stays in use: its caller re-resolves whenever its path is no longer current.
        for (int minute = 0; minute < 11; minute++) {
            clock.advance(Duration.ofMinutes(1));
            if (!orders.isCurrent(clock.nanoTime())) {
                orders = engine.publishPath(ORDERS);
            }
        }
        assertEquals(2, engine.liveBucketCount(), "PAYMENTS' bucket expired");
        assertEquals(10, drain(orders, 1), "ORDERS' bucket is the same one, refilled by time alone");

        clock.advance(Duration.ofMinutes(10).plusNanos(1));
        assertEquals(0, engine.liveBucketCount());
    }

    @Test
    void twoThreadsNeverTakeMoreThanRateTimeAndBurstPlusABatchEach() throws InterruptedException {
        double rate = 10_000;
        int batch = 7;
        QuotaEngine engine = new QuotaEngine(LimitsDocument.empty()
                .withTopic(ORDERS, publish(rate, null, null))
                .withNamespace("public/default", publish(rate * 2, null, null)), clock);
        long start = clock.nanoTime();
        AtomicLong admitted = new AtomicLong();
        CountDownLatch go = new CountDownLatch(1);
        Runnable producer = () -> {
            QuotaPath path = engine.publishPath(ORDERS);
            QuotaDecision own = new QuotaDecision();
            try {
                go.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
            for (int i = 0; i < 200_000; i++) {
                if (path.tryAcquire(clock.nanoTime(), batch, 100, own)) {
                    admitted.addAndGet(batch);
                }
                if (i % 64 == 0) {
                    clock.advance(10_000); // both threads move time on, 10 us at a time
                }
            }
        };
        Thread a = new Thread(producer);
        Thread b = new Thread(producer);
        a.start();
        b.start();
        go.countDown();
        a.join();
        b.join();
        double elapsedSeconds = (clock.nanoTime() - start) / 1e9;
        double bound = rate * elapsedSeconds + rate * 1.0 + 2 * batch;
        assertTrue(admitted.get() <= bound, admitted + " admitted, bound " + bound);
        assertTrue(admitted.get() >= 0.9 * rate * elapsedSeconds, admitted + " admitted in " + elapsedSeconds + " s");
    }
}
