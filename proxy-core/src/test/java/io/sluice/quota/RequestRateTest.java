package io.sluice.quota;

import io.sluice.limits.EventRate;
import io.sluice.limits.Limit;
import io.sluice.limits.LimitPart;
import io.sluice.limits.LimitsDocument;
import io.sluice.limits.OnExceed;
import io.sluice.limits.RateLimit;
import io.sluice.limits.ScopeKind;
import io.sluice.limits.ScopeRef;
import io.sluice.limits.TestScopes;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The engine's buckets of requests that create work on the broker, on a fake clock. */
class RequestRateTest {

    private static final long SECOND = 1_000_000_000L;

    private final FakeClock clock = new FakeClock();
    private final QuotaDecision decision = new QuotaDecision();

    private static Limit requests(double perSecond, double burstSeconds, OnExceed onExceed) {
        return Limit.requests(new EventRate(perSecond, burstSeconds)).withOnExceed(onExceed);
    }

    private int admitted(QuotaEngine engine, List<ScopeRef> scopes) {
        int admitted = 0;
        while (engine.requestPath(scopes).tryAcquire(clock.nanoTime(), 1, 0, decision)) {
            admitted++;
        }
        return admitted;
    }

    @Test
    void aClientGetsItsBurstThenItsRateAndAnotherIsNotSlowed() {
        ScopeRef eachClient = new ScopeRef(TestScopes.CLIENT, ScopeKind.DEFAULT_NAME);
        QuotaEngine engine =
                new QuotaEngine(LimitsDocument.empty().withLimit(eachClient, requests(100, 1, OnExceed.REJECT)), clock);
        List<ScopeRef> alice = List.of(new ScopeRef(TestScopes.CLIENT, "alice"));
        List<ScopeRef> bob = List.of(new ScopeRef(TestScopes.CLIENT, "bob"));
        assertEquals(100, admitted(engine, alice), "the burst: 100/s for 1 s");
        assertEquals(OnExceed.REJECT, decision.onExceed());
        assertEquals("work_requests", decision.reason());
        assertTrue(
                decision.rejectMessage().startsWith("throttled: client alice exceeds 100.0 requests/s; retry after "),
                decision.rejectMessage());
        assertEquals(100, admitted(engine, bob), "another client has a bucket of its own");
        clock.advance(SECOND / 10);
        assertEquals(10, admitted(engine, alice), "then 100 a second");
    }

    @Test
    void theMostSpecificExceededScopeDecidesAndEveryScopeIsCharged() {
        ScopeRef topic = new ScopeRef(TestScopes.TOPIC, "t/n/x");
        ScopeRef address = new ScopeRef(ScopeKind.IPS, "10.0.0.1/32");
        QuotaEngine engine = new QuotaEngine(
                LimitsDocument.empty()
                        .withLimit(topic, requests(5, 1, OnExceed.DELAY))
                        .withLimit(address, requests(8, 1, OnExceed.REJECT)),
                clock);
        assertEquals(5, admitted(engine, List.of(address, topic)), "in rank order, whatever the caller's");
        assertEquals(topic, decision.scope());
        assertEquals(OnExceed.DELAY, decision.onExceed());
        assertEquals(3, admitted(engine, List.of(address)), "the topic's requests were the address's too");
        assertEquals(address, decision.scope());
    }

    @Test
    void aScopeWithoutARateOfRequestsAdmitsAtOnceAndRatesOfMessagesAreNotCharged() {
        QuotaEngine engine = new QuotaEngine(
                LimitsDocument.empty()
                        .withLimit(ScopeRef.PROXY, Limit.publish(new RateLimit(1.0, null, null, null)))
                        .withLimit(
                                new ScopeRef(ScopeKind.IPS, "10.0.0.1/32"), Limit.connections(new EventRate(1.0, 1.0))),
                clock);
        assertTrue(engine.requestPath(List.of(new ScopeRef(ScopeKind.IPS, "10.0.0.1/32")))
                .isUnlimited());
        assertFalse(engine.limits().sets(LimitPart.REQUESTS));
        assertTrue(engine.limits().sets(LimitPart.CONNECTIONS));
    }

    @Test
    void requestBucketsHaveAStableIdAndAreBoundedAsIdentities() {
        ScopeRef eachClient = new ScopeRef(TestScopes.CLIENT, ScopeKind.DEFAULT_NAME);
        QuotaEngine engine = new QuotaEngine(
                LimitsDocument.empty().withLimit(eachClient, requests(10, 2, null)),
                clock,
                QuotaEngine.DEFAULT_IDLE_EXPIRY,
                50);
        for (int i = 0; i < 1_000; i++) {
            engine.requestPath(List.of(new ScopeRef(TestScopes.CLIENT, "client-" + i)));
        }
        assertTrue(engine.liveBucketCount() <= 50, "at most --max-tracked-identities clients");
        ScopeBucket bucket = engine.limitedBuckets().get(0);
        assertEquals(10.0, bucket.limitRate());
        assertEquals(Dimension.REQUESTS, bucket.key().dimension());
        assertTrue(
                bucket.key().id().startsWith("work requests test_client client-"),
                bucket.key().id());
    }
}
