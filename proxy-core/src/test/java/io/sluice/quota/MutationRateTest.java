package io.sluice.quota;

import io.sluice.limits.Limit;
import io.sluice.limits.LimitPart;
import io.sluice.limits.LimitsDocument;
import io.sluice.limits.MutationRate;
import io.sluice.limits.ScopeKind;
import io.sluice.limits.ScopeRef;
import io.sluice.limits.TestScopes;
import io.sluice.settings.InvalidSettingsException;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The engine's buckets of topic mutations, on a fake clock, under Kafka's strict rule (KIP-599): a
 * charge admitted whole while no bucket is in debt, whatever its size, refused while one is.
 */
class MutationRateTest {

    private static final long SECOND = 1_000_000_000L;

    private final FakeClock clock = new FakeClock();
    private final QuotaDecision decision = new QuotaDecision();

    private static Limit mutations(double partitionsPerSecond) {
        return Limit.mutations(new MutationRate(partitionsPerSecond, 1.0));
    }

    @Test
    void aChargeIsAdmittedWholeWhileNoBucketIsInDebt() {
        ScopeRef alice = new ScopeRef(TestScopes.CLIENT, "alice");
        QuotaEngine engine = new QuotaEngine(LimitsDocument.empty().withLimit(alice, mutations(5)), clock);
        QuotaPath path = engine.mutationPath(List.of(alice));
        assertTrue(path.tryAcquireWhole(clock.nanoTime(), 10, decision), "10 partitions on a full bucket of 5");
        assertFalse(path.tryAcquireWhole(clock.nanoTime(), 1, decision), "in debt: not even one");
        assertEquals("topic_mutations", decision.reason());
        assertTrue(
                decision.rejectMessage()
                        .startsWith("throttled: client alice exceeds 5.0 partitions/s; retry after 100"),
                decision.rejectMessage());
        clock.advance(SECOND);
        assertFalse(path.tryAcquireWhole(clock.nanoTime(), 1, decision), "the debt of 5 paid off, nothing more");
        clock.advance(SECOND / 5);
        assertTrue(path.tryAcquireWhole(clock.nanoTime(), 1, decision));
    }

    @Test
    void everyIdentityIsChargedAndTheProxyTakesNone() {
        ScopeRef client = new ScopeRef(TestScopes.CLIENT, "deployer");
        ScopeRef eachClient = new ScopeRef(TestScopes.CLIENT, ScopeKind.DEFAULT_NAME);
        QuotaEngine engine = new QuotaEngine(
                LimitsDocument.empty().withLimit(eachClient, mutations(2)).withLimit(ScopeRef.PROXY, mutations(1)),
                clock);
        QuotaPath path = engine.mutationPath(List.of(client));
        assertTrue(path.tryAcquireWhole(clock.nanoTime(), 2, decision), "the proxy's limit is not on the path");
        assertFalse(path.tryAcquireWhole(clock.nanoTime(), 1, decision));
        assertTrue(
                engine.mutationPath(List.of(new ScopeRef(TestScopes.CLIENT, "other")))
                        .tryAcquireWhole(clock.nanoTime(), 2, decision),
                "each client id a bucket of its own");
        assertTrue(engine.limits().sets(LimitPart.MUTATIONS));
        assertTrue(engine.requestPath(List.of(client)).isUnlimited(), "no rate of requests");
        ScopeBucket bucket = engine.limitedBuckets().get(0);
        assertEquals(Dimension.MUTATIONS, bucket.key().dimension());
        assertTrue(
                bucket.key().id().startsWith("topic mutations test_client "),
                bucket.key().id());
    }

    @Test
    void aRateIsPositiveAndABurstWithinItsRange() {
        assertThrows(InvalidSettingsException.class, () -> new MutationRate(0.0, null));
        assertThrows(InvalidSettingsException.class, () -> new MutationRate(5.0, 61.0));
        assertEquals(1.0, new MutationRate(5.0, null).burstSeconds());
    }
}
