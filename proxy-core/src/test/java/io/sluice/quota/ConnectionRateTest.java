package io.sluice.quota;

import io.sluice.limits.EventRate;
import io.sluice.limits.Limit;
import io.sluice.limits.LimitsDocument;
import io.sluice.limits.RateLimit;
import io.sluice.limits.ScopeKind;
import io.sluice.limits.ScopeRef;
import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The engine's buckets of new connections, on a fake clock. */
class ConnectionRateTest {

    private static final long SECOND = 1_000_000_000L;

    private final FakeClock clock = new FakeClock();
    private final QuotaDecision decision = new QuotaDecision();

    private static Limit connections(double perSecond, double burstSeconds) {
        return Limit.connections(new EventRate(perSecond, burstSeconds));
    }

    private int admitted(QuotaPath path) {
        return Admissions.untilRefused(path, clock.nanoTime(), 0, decision);
    }

    @Test
    void anAddressGetsItsBurstThenItsRateAndEachAddressItsOwnBucket() {
        ScopeRef any = new ScopeRef(ScopeKind.IPS, ScopeKind.DEFAULT_NAME);
        QuotaEngine engine = new QuotaEngine(LimitsDocument.empty().withLimit(any, connections(10, 1)), clock);
        ScopeRef one = new ScopeRef(ScopeKind.IPS, "127.0.0.1/32");
        ScopeRef other = new ScopeRef(ScopeKind.IPS, "127.0.0.2/32");
        assertEquals(10, admitted(engine.connectionPath(one)), "the burst: 10/s for 1 s");
        assertEquals(10, admitted(engine.connectionPath(other)), "another address is not slowed");
        clock.advance(SECOND / 2);
        assertEquals(5, admitted(engine.connectionPath(one)));
        assertEquals(
                "accept connections ip 127.0.0.1/32",
                new BucketKey(decision.direction(), decision.scope(), decision.dimension()).id(),
                "a stable id the cluster store shares like any bucket's");
        clock.advance(SECOND / 10);
        assertEquals(1, admitted(engine.connectionPath(one)), "one connection per 100 ms");
    }

    @Test
    void aScopeWithoutAConnectionRateAdmitsAtOnceAndTheProxysLimitIsNotCharged() {
        QuotaEngine engine = new QuotaEngine(
                LimitsDocument.empty().withLimit(ScopeRef.PROXY, Limit.publish(new RateLimit(1.0, null, null, null))),
                clock);
        assertTrue(engine.connectionPath(new ScopeRef(ScopeKind.IPS, "10.0.0.1/32"))
                .isUnlimited());
    }

    @Test
    void connectionBucketsAreReportedToTheClusterSyncAndBoundedAsIdentities() {
        ScopeRef any = new ScopeRef(ScopeKind.IPS, ScopeKind.DEFAULT_NAME);
        QuotaEngine engine = new QuotaEngine(
                LimitsDocument.empty().withLimit(any, connections(10, 2)), clock, Duration.ofMinutes(10), 50);
        for (int i = 0; i < 1_000; i++) {
            engine.connectionPath(new ScopeRef(ScopeKind.IPS, "10.0." + (i / 256) + "." + (i % 256) + "/32"));
        }
        assertTrue(engine.liveBucketCount() <= 50, "at most --max-tracked-identities addresses");
        ScopeBucket bucket = engine.limitedBuckets().get(0);
        assertEquals(10.0, bucket.limitRate());
        assertEquals(Dimension.CONNECTIONS, bucket.key().dimension());
    }
}
