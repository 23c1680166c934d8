package io.sluice.redis;

import io.netty.resolver.dns.DnsNameResolverBuilder;
import io.sluice.cluster.Demand;
import io.sluice.cluster.MemberDemand;
import io.sluice.cluster.MemberSeen;
import io.sluice.cluster.SyncReply;
import io.sluice.cluster.SyncRequest;
import io.sluice.limits.VersionedLimits;
import io.sluice.testkit.redis.RedisServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The cluster store and the shared limits against a real redis-server 7.0. */
class RedisClusterStoreTest {

    /** The store's name resolved as Sluice does by default. */
    private static final DnsNameResolverBuilder SYSTEM_DNS = new DnsNameResolverBuilder();

    private static final Duration INTERVAL = Duration.ofMillis(200);
    private static final String BUCKET = "publish messages pulsar_namespace public/default";

    private static RedisServer redis;
    private static int clusters;

    private String clusterId;
    private RedisClusterStore one;
    private RedisClusterStore two;

    @BeforeAll
    static void startRedis() {
        redis = RedisServer.builder().start();
    }

    @AfterAll
    static void stopRedis() {
        redis.close();
    }

    private RedisClusterStore store() {
        return new RedisClusterStore(
                RedisLink.to(redis.uri(), null, null, Duration.ofMillis(500), SYSTEM_DNS), clusterId, INTERVAL);
    }

    private void open() {
        clusterId = "test-" + (++clusters);
        one = store();
        two = store();
    }

    @AfterEach
    void close() {
        if (one != null) {
            one.close();
            two.close();
        }
    }

    private static SyncRequest report(String member, double usage, double demand) {
        return new SyncRequest(member, Map.of(BUCKET, new Demand(usage, demand)));
    }

    private static List<MemberDemand> sorted(List<MemberDemand> demands) {
        return demands.stream()
                .sorted(Comparator.comparing(MemberDemand::member))
                .toList();
    }

    @Test
    void everySluiceReadsEveryLiveReportInTheSameRoundTripAsItWritesItsOwn() throws IOException {
        open();
        SyncReply first = one.exchange(report("a", 100, 100));
        assertEquals(
                List.of(new MemberDemand("a", new Demand(100, 100))),
                first.demands().get(BUCKET));
        assertEquals(0, first.limitsVersion(), "no shared limits");

        SyncReply second = two.exchange(report("b", 300, 700.5));
        assertEquals(
                List.of(new MemberDemand("a", new Demand(100, 100)), new MemberDemand("b", new Demand(300, 700.5))),
                sorted(second.demands().get(BUCKET)));
        assertEquals(
                List.of("a", "b"),
                second.members().stream().map(MemberSeen::member).sorted().toList());
        assertTrue(
                second.members().stream().allMatch(m -> m.lastSeenMillisAgo() < 5_000),
                second.members().toString());
    }

    @Test
    void aSluiceThatStopsReportingIsForgottenAfterThreeIntervalsAndSoAreTheKeys() throws Exception {
        open();
        one.exchange(report("a", 100, 100));
        two.exchange(report("b", 100, 100));
        Thread.sleep(INTERVAL.toMillis() * 3 + 200);
        SyncReply reply = two.exchange(report("b", 100, 100));
        assertEquals(
                List.of("b"),
                reply.demands().get(BUCKET).stream().map(MemberDemand::member).toList());
        assertEquals(
                List.of("b"), reply.members().stream().map(MemberSeen::member).toList());

        Thread.sleep(INTERVAL.toMillis() * 3 + 200);
        try (RedisLink link = RedisLink.to(redis.uri(), null, null, Duration.ofSeconds(2), SYSTEM_DNS)) {
            assertEquals(
                    0L,
                    link.await(link.commands()
                            .exists(new RedisKeys(clusterId).members(), new RedisKeys(clusterId).demand(BUCKET))),
                    "nothing left once nobody reports");
        }
    }

    @Test
    void theLimitsDocumentIsWrittenOnlyOverTheVersionItWasBasedOn() throws IOException {
        open();
        try (RedisLink link = RedisLink.to(redis.uri(), null, null, Duration.ofSeconds(2), SYSTEM_DNS)) {
            RedisSharedLimits limits = new RedisSharedLimits(link, clusterId);
            assertTrue(limits.read().isEmpty());
            assertTrue(limits.compareAndSet(0, 1, "{}"));
            assertFalse(limits.compareAndSet(0, 1, "{\"tenants\":{}}"), "someone stored version 1 first");
            assertTrue(limits.compareAndSet(1, 2, "{\"proxy\":null}"));
            assertEquals(
                    new VersionedLimits(2, "{\"proxy\":null}"), limits.read().orElseThrow());
            assertEquals(
                    2,
                    one.exchange(report("a", 0, 0)).limitsVersion(),
                    "the sync reads the version in the same round trip");
        }
    }

    @Test
    void aStoppedOrFrozenRedisFailsTheSyncWithinTheTimeoutAndARestartedOneServesAgain() throws Exception {
        open();
        // The first connect may take longer than the 0.5 s timeout on a busy machine; what is tested comes after.
        exchangeWithinTenSeconds(report("a", 1, 1));
        redis.kill();
        try {
            assertFailsWithinTwoSeconds(one);
        } finally {
            redis.restart();
        }
        // Lettuce reconnects in the background; the restarted server has forgotten the script too.
        SyncReply reply = exchangeWithinTenSeconds(report("a", 2, 2));
        assertEquals(
                List.of(new MemberDemand("a", new Demand(2, 2))),
                reply.demands().get(BUCKET));

        redis.freeze();
        try {
            assertFailsWithinTwoSeconds(one);
        } finally {
            redis.unfreeze();
        }
    }

    /** The first sync of {@code request} that succeeds within 10 s, or null. */
    private SyncReply exchangeWithinTenSeconds(SyncRequest request) throws InterruptedException {
        long deadline = System.nanoTime() + 10_000_000_000L;
        while (System.nanoTime() < deadline) {
            try {
                return one.exchange(request);
            } catch (IOException e) {
                Thread.sleep(100);
            }
        }
        return null;
    }

    /** A sync with a store that cannot answer fails, and no later than its timeout (0.5 s) allows. */
    private static void assertFailsWithinTwoSeconds(RedisClusterStore store) {
        long start = System.nanoTime();
        assertThrows(IOException.class, () -> store.exchange(report("a", 1, 1)));
        assertTrue(
                System.nanoTime() - start < 2_000_000_000L,
                "failed after " + (System.nanoTime() - start) / 1_000_000 + " ms");
    }

    @Test
    void aBadUrlIsRefusedWithoutItsPassword() {
        IllegalArgumentException e =
                assertThrows(IllegalArgumentException.class, () -> RedisLink.parse("http://:secret@redis:6379"));
        assertTrue(e.getMessage().contains("expected redis://host:port[/db]"), e.getMessage());
        assertFalse(e.getMessage().contains("secret"), e.getMessage());
        assertEquals(6380, RedisLink.parse("rediss://redis:6380/2").getPort());
        assertThrows(
                IllegalArgumentException.class,
                () -> RedisLink.to(
                        "redis://redis:6379", null, java.nio.file.Path.of("ca.pem"), Duration.ofSeconds(1), SYSTEM_DNS),
                "a CA file without TLS");
    }
}
