package io.sluice.quota;

import io.sluice.limits.Limit;
import io.sluice.limits.LimitPart;
import io.sluice.limits.LimitsDocument;
import io.sluice.limits.NameParameter;
import io.sluice.limits.NameRule;
import io.sluice.limits.NameTemplate;
import io.sluice.limits.OnExceed;
import io.sluice.limits.ScopeKind;
import io.sluice.limits.ScopeRef;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The engine's buckets of a consumer group's joins and commits, on a fake clock. */
class GroupRateTest {

    private static final long SECOND = 1_000_000_000L;

    private static final ScopeKind GROUP = ScopeKind.builder("test", "group")
            .field("groups")
            .cliName("group")
            .named(NameTemplate.of("{group}", NameParameter.of("group")), NameRule.ANY, "orders")
            .withDefault()
            .accepts(LimitPart.JOINS, LimitPart.COMMITS)
            .rank(50)
            .description("one test group")
            .build();

    private static final ScopeRef EACH_GROUP = new ScopeRef(GROUP, ScopeKind.DEFAULT_NAME);

    private final FakeClock clock = new FakeClock();
    private final QuotaDecision decision = new QuotaDecision();

    private static Limit groups(Double joinsPerMinute, Double commitsPerMinute, OnExceed onExceed) {
        return Limit.joinsPerMinute(joinsPerMinute)
                .withCommitsPerMinute(commitsPerMinute)
                .withOnExceed(onExceed);
    }

    private int admitted(QuotaPath path) {
        return Admissions.untilRefused(path, clock.nanoTime(), 0, decision);
    }

    @Test
    void aGroupGetsAMinuteOfJoinsAtOnceThenItsRateAndEachGroupItsOwnBucket() {
        QuotaEngine engine =
                new QuotaEngine(LimitsDocument.empty().withLimit(EACH_GROUP, groups(6.0, null, null)), clock);
        ScopeRef orders = new ScopeRef(GROUP, "orders");
        assertEquals(6, admitted(engine.groupPath(orders, Dimension.JOINS)), "a minute of joins at once");
        assertEquals(6, admitted(engine.groupPath(new ScopeRef(GROUP, "billing"), Dimension.JOINS)));
        clock.advance(1);
        assertEquals(1, admitted(engine.groupPath(orders, Dimension.JOINS)), "one more once the bucket is positive");
        assertEquals(10 * SECOND, decision.waitNanos(), 2, "then one join per 10 s");
        assertEquals("group_joins", decision.reason());
        assertEquals("throttled: group orders exceeds 6.0 joins/min; retry after 10000 ms", decision.rejectMessage());
        assertEquals(
                "group joins test_group orders",
                new BucketKey(decision.direction(), decision.scope(), decision.dimension()).id(),
                "a stable id the cluster store shares like any bucket's");
        clock.advance(10 * SECOND);
        assertEquals(1, admitted(engine.groupPath(orders, Dimension.JOINS)));
        clock.advance(70 * SECOND);
        assertEquals(6, admitted(engine.groupPath(orders, Dimension.JOINS)), "full again after a quiet minute");
    }

    @Test
    void joinsAndCommitsAreCountedApartAndARateNotSetAdmitsAtOnce() {
        ScopeRef orders = new ScopeRef(GROUP, "orders");
        QuotaEngine engine =
                new QuotaEngine(LimitsDocument.empty().withLimit(orders, groups(null, 600.0, OnExceed.REJECT)), clock);
        assertTrue(engine.groupPath(orders, Dimension.JOINS).isUnlimited(), "no joins rate: joins go at once");
        assertEquals(600, admitted(engine.groupPath(orders, Dimension.COMMITS)));
        assertEquals(OnExceed.REJECT, decision.onExceed());
        assertEquals("group_commits", decision.reason());
        clock.advance(SECOND);
        assertEquals(10, admitted(engine.groupPath(orders, Dimension.COMMITS)), "600 a minute is 10 a second");
        assertTrue(engine.groupPath(new ScopeRef(GROUP, "other"), Dimension.COMMITS)
                .isUnlimited());
        assertTrue(engine.publishPath(limits -> List.of(orders)).isUnlimited(), "no message rate");
    }

    @Test
    void groupBucketsAreReportedToTheClusterSyncAndBoundedAsIdentities() {
        QuotaEngine engine = new QuotaEngine(
                LimitsDocument.empty().withLimit(EACH_GROUP, groups(6.0, 60.0, null)),
                clock,
                Duration.ofMinutes(10),
                50);
        for (int i = 0; i < 1_000; i++) {
            engine.groupPath(new ScopeRef(GROUP, "group-" + i), Dimension.JOINS);
        }
        assertTrue(engine.liveBucketCount() <= 50, "at most --max-tracked-identities groups");
        ScopeBucket bucket = engine.limitedBuckets().get(0);
        assertEquals(0.1, bucket.limitRate(), 1e-12, "joins per second: 6 a minute");
        assertEquals(Dimension.JOINS, bucket.key().dimension());
    }
}
