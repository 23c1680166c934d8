package io.sluice.quota;

import io.sluice.limits.Direction;
import io.sluice.limits.Limit;
import io.sluice.limits.LimitsDocument;
import io.sluice.limits.LimitsJson;
import io.sluice.limits.OnExceed;
import io.sluice.limits.RateLimit;
import io.sluice.limits.ScopeKind;
import io.sluice.limits.ScopeRef;
import io.sluice.limits.TestScopes;
import io.sluice.settings.InvalidSettingsException;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class QuotaEngineTest {

    private static final long SECOND = 1_000_000_000L;
    private static final long MILLI = 1_000_000L;
    private static final String ORDERS = "public/default/orders";
    private static final String PAYMENTS = "public/default/payments";

    private final FakeClock clock = new FakeClock();
    private final QuotaDecision decision = new QuotaDecision();

    private static Limit publish(Double messagesPerSecond, Double bytesPerSecond, OnExceed onExceed) {
        return Limit.publish(new RateLimit(messagesPerSecond, bytesPerSecond, null, null))
                .withOnExceed(onExceed);
    }

    /** Sends single messages of {@code bytes} until refused; returns how many got through. */
    private int drain(QuotaPath path, long bytes) {
        return Admissions.untilRefused(path, clock.nanoTime(), bytes, decision);
    }

    @Test
    void bucketsOfIdentitiesAreBoundedWhateverNamesComeAndAnIdentityInUseKeepsItsBucket() {
        LimitsDocument limits = LimitsDocument.empty()
                .withLimit(new ScopeRef(TestScopes.CLIENT, ScopeKind.DEFAULT_NAME), publish(10.0, null, null));
        QuotaEngine engine = new QuotaEngine(limits, clock, Duration.ofMinutes(10), 100);
        QuotaPath held = engine.publishPath(TestScopes.topic(ORDERS, "steady"));
        assertEquals(10, drain(held, 1), "the burst of a client limited by the default entry");

        for (int i = 0; i < 100_000; i++) {
            engine.publishPath(TestScopes.topic(ORDERS, "renamed-" + i));
            if (i % 1_000 == 0) {
                // The steady client goes on sending: its path re-resolves as paths do, once a second.
                clock.advance(MILLI);
                held = engine.publishPath(TestScopes.topic(ORDERS, "steady"));
            }
        }

        assertTrue(engine.liveBucketCount() <= 100, "buckets kept: " + engine.liveBucketCount());
        clock.advance(100 * MILLI);
        assertEquals(2, drain(engine.publishPath(TestScopes.topic(ORDERS, "steady")), 1), "its bucket was dropped");
    }

    @Test
    void bucketsOfTopicsAreNotCountedAgainstTheIdentities() {
        LimitsDocument limits = LimitsDocument.empty()
                .withLimit(new ScopeRef(TestScopes.NAMESPACE, "public/default"), publish(10.0, null, null))
                .withLimit(new ScopeRef(TestScopes.TOPIC, ORDERS), publish(10.0, null, null));
        QuotaEngine engine = new QuotaEngine(limits, clock, Duration.ofMinutes(10), 1);
        engine.publishPath(TestScopes.topic(ORDERS));
        assertEquals(2, engine.liveBucketCount());
    }

    @Test
    void noLimitsMeansAnEmptyPathThatAlwaysAdmits() {
        QuotaEngine engine = new QuotaEngine(LimitsDocument.empty(), clock);
        QuotaPath path = engine.publishPath(TestScopes.topic(ORDERS));
        assertTrue(path.isUnlimited());
        for (int i = 0; i < 1000; i++) {
            assertTrue(path.tryAcquire(clock.nanoTime(), 1000, 1 << 20, decision));
        }
        assertEquals(0, path.waitNanos(clock.nanoTime()));
        assertEquals(0, engine.liveBucketCount());
    }

    @Test
    void onlyTheLimitedDirectionGetsBuckets() {
        LimitsDocument limits =
                LimitsDocument.empty().withLimit(new ScopeRef(TestScopes.TOPIC, ORDERS), publish(10.0, null, null));
        QuotaEngine engine = new QuotaEngine(limits, clock);
        assertFalse(engine.publishPath(TestScopes.topic(ORDERS)).isUnlimited());
        assertTrue(engine.dispatchPath(TestScopes.topic(ORDERS)).isUnlimited());
        assertTrue(engine.publishPath(TestScopes.topic(PAYMENTS)).isUnlimited());
    }

    @Test
    void twoTopicsShareTheirNamespaceLimit() {
        LimitsDocument limits = LimitsDocument.empty()
                .withLimit(new ScopeRef(TestScopes.TOPIC, ORDERS), publish(100.0, null, null))
                .withLimit(new ScopeRef(TestScopes.NAMESPACE, "public/default"), publish(150.0, null, null));
        QuotaEngine engine = new QuotaEngine(limits, clock);

        assertEquals(100, drain(engine.publishPath(TestScopes.topic(ORDERS)), 10));
        assertEquals(TestScopes.TOPIC, decision.scope().kind());
        assertEquals(50, drain(engine.publishPath(TestScopes.topic(PAYMENTS)), 10), "the namespace has 50 left");
        assertEquals(TestScopes.NAMESPACE, decision.scope().kind());
        assertEquals("public/default", decision.scope().name());
    }

    @Test
    void aPathSaysWhatItsTightestScopeHasLeftAndTakesBackWhatNeverWent() {
        LimitsDocument limits = LimitsDocument.empty()
                .withLimit(new ScopeRef(TestScopes.TOPIC, ORDERS), publish(100.0, null, null))
                .withLimit(new ScopeRef(TestScopes.NAMESPACE, "public/default"), publish(150.0, null, null));
        QuotaPath path = new QuotaEngine(limits, clock).publishPath(TestScopes.topic(ORDERS));
        long now = clock.nanoTime();
        assertEquals(100, path.balance(now, false), "the topic's 100 are less than the namespace's 150");
        assertEquals(Long.MAX_VALUE, path.balance(now, true), "nothing limits bytes");
        path.charge(now, 130, 0);
        assertEquals(-30, path.balance(now, false), "in debt");
        path.giveBack(now, 130, 0);
        assertEquals(100, path.balance(now, false));
    }

    @Test
    void aTopicLimitIsSharedAcrossConnections() {
        QuotaEngine engine = new QuotaEngine(
                LimitsDocument.empty().withLimit(new ScopeRef(TestScopes.TOPIC, ORDERS), publish(10.0, null, null)),
                clock);
        QuotaPath first = engine.publishPath(TestScopes.topic(ORDERS));
        QuotaPath second = engine.publishPath(TestScopes.topic(ORDERS));
        assertEquals(6, drain(first, 1) - 4);
        assertEquals(0, drain(second, 1));
        assertEquals(1, engine.liveBucketCount());
    }

    @Test
    void tenantAndProxyScopesNestToo() {
        LimitsDocument limits = LimitsDocument.empty()
                .withLimit(new ScopeRef(TestScopes.TENANT, "public"), publish(30.0, null, null))
                .withLimit(ScopeRef.PROXY, publish(null, 1000.0, null));
        QuotaEngine engine = new QuotaEngine(limits, clock);
        assertEquals(30, drain(engine.publishPath(TestScopes.topic(ORDERS)), 1));
        assertEquals(TestScopes.TENANT, decision.scope().kind());
        assertEquals("public", decision.scope().name());
        assertEquals(
                10, drain(engine.publishPath(TestScopes.topic("other/ns/x")), 100), "1000 bytes of proxy limit left");
        assertEquals(ScopeKind.PROXY, decision.scope().kind());
        assertEquals(ScopeKind.PROXY_NAME, decision.scope().name());
        assertEquals(Dimension.BYTES, decision.dimension());
        assertEquals(
                0,
                drain(engine.publishPath(TestScopes.topic("not a topic name")), 1),
                "a bad name still meets the proxy limit");
    }

    @Test
    void partitionsAggregateUnderTheBaseNameAndMayHaveTheirOwnLimit() {
        String partition0 = ORDERS + "-partition-0";
        String partition1 = ORDERS + "-partition-1";
        LimitsDocument limits = LimitsDocument.empty()
                .withLimit(new ScopeRef(TestScopes.TOPIC, ORDERS), publish(100.0, null, OnExceed.DELAY))
                .withLimit(new ScopeRef(TestScopes.TOPIC, partition1), publish(30.0, null, OnExceed.REJECT));
        QuotaEngine engine = new QuotaEngine(limits, clock);

        assertEquals(30, drain(engine.publishPath(TestScopes.topic(partition1)), 1));
        assertEquals(partition1, decision.scope().name());
        assertEquals(OnExceed.REJECT, decision.onExceed());
        assertEquals(
                70,
                drain(engine.publishPath(TestScopes.topic(partition0)), 1),
                "the base name's limit covers both partitions");
        assertEquals(ORDERS, decision.scope().name());
        assertEquals(OnExceed.DELAY, decision.onExceed());
    }

    @Test
    void theMostSpecificExceededScopeDecidesAndTheWaitCoversAll() {
        LimitsDocument limits = LimitsDocument.empty()
                .withLimit(new ScopeRef(TestScopes.TOPIC, ORDERS), publish(10.0, null, OnExceed.NOTIFY))
                .withLimit(new ScopeRef(TestScopes.NAMESPACE, "public/default"), publish(5.0, null, OnExceed.REJECT));
        QuotaEngine engine = new QuotaEngine(limits, clock);
        QuotaPath path = engine.publishPath(TestScopes.topic(ORDERS));
        long now = clock.nanoTime();
        assertTrue(path.tryAcquire(now, 20, 0, decision), "a batch is admitted while every balance is positive");
        assertFalse(path.tryAcquire(now, 1, 0, decision));

        // Both are exceeded: the topic is 10 in debt (1 s to repay), the namespace 15 (3 s).
        assertEquals(TestScopes.TOPIC, decision.scope().kind());
        assertEquals(ORDERS, decision.scope().name());
        assertEquals(OnExceed.NOTIFY, decision.onExceed());
        assertEquals(Dimension.MESSAGES, decision.dimension());
        assertEquals(10.0, decision.rate());
        assertEquals(Direction.PUBLISH, decision.direction());
        assertEquals(3 * SECOND + 1, decision.waitNanos());
        assertEquals(3 * SECOND + 1, path.waitNanos(now));
        assertEquals(3001, decision.retryAfterMillis());

        clock.advance(2 * SECOND);
        assertFalse(path.tryAcquire(clock.nanoTime(), 1, 0, decision));
        assertEquals(TestScopes.NAMESPACE, decision.scope().kind(), "the topic has recovered, the namespace has not");
        assertEquals(OnExceed.REJECT, decision.onExceed());
        assertEquals(SECOND + 1, decision.waitNanos());
        clock.advance(SECOND + 1);
        assertTrue(path.tryAcquire(clock.nanoTime(), 1, 0, decision));
    }

    @Test
    void aRefusalChargesNoScope() {
        LimitsDocument limits = LimitsDocument.empty()
                .withLimit(new ScopeRef(TestScopes.TOPIC, ORDERS), publish(100.0, null, null))
                .withLimit(new ScopeRef(TestScopes.NAMESPACE, "public/default"), publish(10.0, null, null));
        QuotaEngine engine = new QuotaEngine(limits, clock);
        assertEquals(10, drain(engine.publishPath(TestScopes.topic(ORDERS)), 1));
        for (int i = 0; i < 1000; i++) {
            assertFalse(engine.publishPath(TestScopes.topic(ORDERS)).tryAcquire(clock.nanoTime(), 1, 0, decision));
        }
        // Had the refused attempts been charged to the topic, it would now be far in debt.
        engine.update(limits.withLimit(new ScopeRef(TestScopes.NAMESPACE, "public/default"), null));
        assertEquals(90, drain(engine.publishPath(TestScopes.topic(ORDERS)), 1));
    }

    @Test
    void bytesAndMessagesAreCountedSeparately() {
        QuotaEngine engine = new QuotaEngine(
                LimitsDocument.empty()
                        .withLimit(new ScopeRef(TestScopes.TOPIC, ORDERS), publish(1000.0, 10_000.0, null)),
                clock);
        assertEquals(10, drain(engine.publishPath(TestScopes.topic(ORDERS)), 1000));
        assertEquals(Dimension.BYTES, decision.dimension());
        assertEquals(10_000.0, decision.rate());
    }

    @Test
    void dispatchUsesDispatchLimitsAndChargeTakesWhatWentThrough() {
        Limit limit = Limit.dispatch(new RateLimit(null, 1000.0, null, null));
        QuotaEngine engine = new QuotaEngine(
                LimitsDocument.empty().withLimit(new ScopeRef(TestScopes.NAMESPACE, "public/default"), limit), clock);
        QuotaPath path = engine.dispatchPath(TestScopes.topic(ORDERS));
        assertTrue(
                path.tryAcquire(clock.nanoTime(), 100, 0, decision),
                "permits pass while the bytes balance is positive");
        path.charge(clock.nanoTime(), 0, 3000);
        assertFalse(path.tryAcquire(clock.nanoTime(), 100, 0, decision));
        assertEquals(Direction.DISPATCH, decision.direction());
        assertEquals(2 * SECOND + 1, decision.waitNanos());
        assertTrue(engine.publishPath(TestScopes.topic(ORDERS)).isUnlimited());
    }

    @Test
    void formatsTheRejectMessage() {
        QuotaEngine engine = new QuotaEngine(
                LimitsDocument.empty()
                        .withLimit(new ScopeRef(TestScopes.TOPIC, ORDERS), publish(500.0, null, OnExceed.REJECT)),
                clock);
        QuotaPath path = engine.publishPath(TestScopes.topic(ORDERS));
        path.tryAcquire(clock.nanoTime(), 506, 0, decision);
        assertFalse(path.tryAcquire(clock.nanoTime(), 1, 0, decision));
        assertEquals(
                "throttled: topic public/default/orders exceeds 500.0 msg/s; retry after 13 ms",
                decision.rejectMessage());

        engine.update(LimitsDocument.empty()
                .withLimit(new ScopeRef(TestScopes.NAMESPACE, "public/default"), publish(null, 1.5e7, null)));
        QuotaPath bytes = engine.publishPath(TestScopes.topic(ORDERS));
        bytes.tryAcquire(clock.nanoTime(), 1, 15_000_000, decision);
        assertFalse(bytes.tryAcquire(clock.nanoTime(), 1, 1, decision));
        assertEquals(
                "throttled: namespace public/default exceeds 15000000.0 bytes/s; retry after 1 ms",
                decision.rejectMessage());
    }

    @Test
    void anUpdateTakesEffectAtOnceAndBumpsTheVersion() {
        LimitsDocument slow =
                LimitsDocument.empty().withLimit(new ScopeRef(TestScopes.TOPIC, ORDERS), publish(10.0, null, null));
        QuotaEngine engine = new QuotaEngine(slow, clock);
        assertEquals(0, engine.version());
        assertSame(slow, engine.limits());
        QuotaPath before = engine.publishPath(TestScopes.topic(ORDERS));
        assertTrue(before.isCurrent(clock.nanoTime()));
        assertEquals(10, drain(before, 1));

        LimitsDocument fast =
                slow.withLimit(new ScopeRef(TestScopes.TOPIC, ORDERS), publish(50.0, null, OnExceed.REJECT));
        engine.update(fast);
        assertEquals(1, engine.version());
        assertSame(fast, engine.limits());
        assertFalse(before.isCurrent(clock.nanoTime()), "paths see the change");
        QuotaPath after = engine.publishPath(TestScopes.topic(ORDERS));
        assertTrue(after.isCurrent(clock.nanoTime()));
        assertEquals(0, drain(after, 1), "a changed limit keeps the bucket: what it owes stays owed");
        assertEquals(OnExceed.REJECT, decision.onExceed());
        assertEquals("throttled: topic " + ORDERS + " exceeds 50.0 msg/s; retry after 1 ms", decision.rejectMessage());
        clock.advance(Duration.ofMillis(100));
        assertEquals(5, drain(after, 1), "refilled at the new rate");
        clock.advance(Duration.ofSeconds(2));
        assertEquals(50, drain(after, 1), "and holds the new capacity");

        engine.update(engine.limits().withLimit(new ScopeRef(TestScopes.TOPIC, ORDERS), null));
        assertEquals(2, engine.version());
        assertTrue(engine.publishPath(TestScopes.topic(ORDERS)).isUnlimited());
    }

    @Test
    void anUnchangedLimitKeepsItsBucketAcrossUpdates() {
        LimitsDocument limits = LimitsDocument.empty()
                .withLimit(new ScopeRef(TestScopes.TOPIC, ORDERS), publish(10.0, null, OnExceed.DELAY));
        QuotaEngine engine = new QuotaEngine(limits, clock);
        assertEquals(10, drain(engine.publishPath(TestScopes.topic(ORDERS)), 1));
        engine.update(limits.withLimit(new ScopeRef(TestScopes.TOPIC, ORDERS), publish(10.0, null, OnExceed.REJECT))
                .withLimit(new ScopeRef(TestScopes.TENANT, "other"), publish(1.0, null, null)));
        assertEquals(
                0, drain(engine.publishPath(TestScopes.topic(ORDERS)), 1), "same rates, same bucket: no free refill");
        assertEquals(OnExceed.REJECT, decision.onExceed(), "the new action applies at once");
    }

    @Test
    void aShareScalesTheRateWithoutResettingTheBucketAndTheRejectMessageNamesTheWholeLimit() {
        LimitsDocument limits = LimitsDocument.empty()
                .withLimit(new ScopeRef(TestScopes.NAMESPACE, "public/default"), publish(100.0, null, OnExceed.REJECT));
        QuotaEngine engine = new QuotaEngine(limits, clock);
        engine.initialShare(() -> 0.5);
        QuotaPath path = engine.publishPath(TestScopes.topic(ORDERS));
        assertEquals(50, drain(path, 1), "a new bucket starts with the initial share of its limit");
        assertEquals(
                "throttled: namespace public/default exceeds 100.0 msg/s; retry after 1 ms", decision.rejectMessage());

        ScopeBucket bucket = engine.limitedBuckets().get(0);
        assertEquals(
                new BucketKey(
                        Direction.PUBLISH, new ScopeRef(TestScopes.NAMESPACE, "public/default"), Dimension.MESSAGES),
                bucket.key());
        assertEquals(100.0, bucket.limitRate());
        assertEquals(0.5, bucket.share());
        assertEquals(50, bucket.chargedUnits());
        assertTrue(bucket.takeRefused());
        assertTrue(bucket.takeRefused(), "an empty bucket keeps its demand: its clients wait on it");

        bucket.share(0.25);
        assertEquals(0, drain(path, 1), "still empty after the change");
        clock.advance(Duration.ofSeconds(1));
        assertEquals(25, drain(path, 1), "refilled at a quarter of the limit");
        assertEquals(75, bucket.chargedUnits());
        clock.advance(Duration.ofSeconds(2));
        assertTrue(bucket.takeRefused(), "the drain was refused");
        assertFalse(bucket.takeRefused(), "taking the mark clears it, and a full bucket owes nothing");
    }

    @Test
    void onlyBucketsOfLimitsInForceAreListed() {
        ScopeRef orders = new ScopeRef(TestScopes.TOPIC, ORDERS);
        LimitsDocument limits = LimitsDocument.empty().withLimit(orders, publish(10.0, 2000.0, null));
        QuotaEngine engine = new QuotaEngine(limits, clock);
        engine.publishPath(TestScopes.topic(ORDERS));
        assertEquals(2, engine.limitedBuckets().size());
        engine.update(limits.withLimit(orders, publish(20.0, null, null)));
        assertEquals(1, engine.limitedBuckets().size(), "the byte limit is gone, its bucket not yet");
        assertEquals(20.0, engine.limitedBuckets().get(0).limitRate(), "the listed bucket has the limit in force");
        assertEquals(2, engine.liveBucketCount());
    }

    @Test
    void aRejectedDocumentChangesNothing() {
        LimitsDocument limits =
                LimitsDocument.empty().withLimit(new ScopeRef(TestScopes.TOPIC, ORDERS), publish(10.0, null, null));
        QuotaEngine engine = new QuotaEngine(limits, clock);
        byte[] bad = """
                {"topics": {"public/default/orders": {"publish": {"messagesPerSecond": 1000}},
                            "public/default/payments": {"publish": {"messagesPerSecond": -1}}}}""".getBytes(StandardCharsets.UTF_8);
        byte[] copy = bad.clone();
        assertThrows(
                InvalidSettingsException.class,
                () -> engine.update(LimitsJson.parseDocument(bad, TestScopes.CATALOGUE)));
        assertSame(limits, engine.limits());
        assertEquals(0, engine.version());
        assertEquals(new String(copy, StandardCharsets.UTF_8), new String(bad, StandardCharsets.UTF_8));
        assertEquals(10, drain(engine.publishPath(TestScopes.topic(ORDERS)), 1));
    }

    @Test
    void aPathGoesStaleAfterASecond() {
        QuotaEngine engine = new QuotaEngine(LimitsDocument.empty(), clock);
        QuotaPath path = engine.publishPath(TestScopes.topic(ORDERS));
        assertTrue(path.isCurrent(clock.nanoTime() + SECOND - 1));
        assertFalse(path.isCurrent(clock.nanoTime() + SECOND));
    }

    @Test
    void idleBucketsExpireAndBucketsInUseDoNot() {
        LimitsDocument limits = LimitsDocument.empty()
                .withLimit(new ScopeRef(TestScopes.TOPIC, ORDERS), publish(10.0, 1000.0, null))
                .withLimit(new ScopeRef(TestScopes.TOPIC, PAYMENTS), publish(10.0, null, null));
        QuotaEngine engine = new QuotaEngine(limits, clock, Duration.ofMinutes(10));
        QuotaPath orders = engine.publishPath(TestScopes.topic(ORDERS));
        engine.publishPath(TestScopes.topic(PAYMENTS));
        assertEquals(3, engine.liveBucketCount());
        assertEquals(10, drain(orders, 1));

        // ORDERS stays in use: its caller re-resolves whenever its path is no longer current.
        for (int minute = 0; minute < 11; minute++) {
            clock.advance(Duration.ofMinutes(1));
            if (!orders.isCurrent(clock.nanoTime())) {
                orders = engine.publishPath(TestScopes.topic(ORDERS));
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
        QuotaEngine engine = new QuotaEngine(
                LimitsDocument.empty()
                        .withLimit(new ScopeRef(TestScopes.TOPIC, ORDERS), publish(rate, null, null))
                        .withLimit(new ScopeRef(TestScopes.NAMESPACE, "public/default"), publish(rate * 2, null, null)),
                clock);
        long start = clock.nanoTime();
        AtomicLong admitted = new AtomicLong();
        CountDownLatch go = new CountDownLatch(1);
        Runnable producer = () -> {
            QuotaPath path = engine.publishPath(TestScopes.topic(ORDERS));
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

    @Test
    void aChainIsChargedInTheRankOfItsKindsWhateverItsOrder() {
        LimitsDocument limits = LimitsDocument.empty()
                .withLimit(new ScopeRef(TestScopes.TENANT, "public"), publish(50.0, null, OnExceed.DELAY))
                .withLimit(new ScopeRef(TestScopes.CLIENT, "billing"), publish(50.0, null, OnExceed.NOTIFY))
                .withLimit(new ScopeRef(TestScopes.TOPIC, ORDERS), publish(50.0, null, OnExceed.REJECT));
        QuotaEngine engine = new QuotaEngine(limits, clock);
        List<ScopeRef> backwards = List.of(
                new ScopeRef(TestScopes.CLIENT, "billing"),
                new ScopeRef(TestScopes.TENANT, "public"),
                new ScopeRef(TestScopes.TOPIC, ORDERS));

        assertEquals(50, drain(engine.publishPath(any -> backwards), 1));
        assertEquals(new ScopeRef(TestScopes.TOPIC, ORDERS), decision.scope(), "the most specific scope decides");
        assertEquals(OnExceed.REJECT, decision.onExceed());
    }
}
