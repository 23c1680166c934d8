package io.sluice.admin;

import com.fasterxml.jackson.databind.JsonNode;
import io.sluice.cluster.BucketShare;
import io.sluice.cluster.ClusterStatus;
import io.sluice.cluster.MemberSeen;
import io.sluice.cluster.SyncMode;
import io.sluice.limits.Direction;
import io.sluice.limits.ScopeRef;
import io.sluice.limits.SharedLimits;
import io.sluice.limits.VersionedLimits;
import io.sluice.pulsar.scopes.PulsarScopes;
import io.sluice.quota.BucketKey;
import io.sluice.quota.Dimension;
import io.sluice.testing.LeakCheck;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code GET /api/v1/cluster}, the {@code sluice_cluster_*} metrics and limits changes while the shared store is down. */
@ExtendWith(LeakCheck.class)
class ClusterEndpointTest {

    @TempDir
    Path dir;

    /** Shared limits in memory; {@link #down} makes the store unreachable. */
    private static final class Store implements SharedLimits {
        volatile boolean down;
        private VersionedLimits stored;

        @Override
        public synchronized Optional<VersionedLimits> read() throws IOException {
            if (down) {
                throw new IOException("connection refused");
            }
            return Optional.ofNullable(stored);
        }

        @Override
        public synchronized boolean compareAndSet(long expected, long next, String json) throws IOException {
            if (down) {
                throw new IOException("connection refused");
            }
            if ((stored == null ? 0 : stored.version()) != expected) {
                return false;
            }
            stored = new VersionedLimits(next, json);
            return true;
        }
    }

    @Test
    void aSluiceOnItsOwnSaysSoAndHasNoClusterMetrics() throws IOException {
        try (AdminFixture admin = AdminFixture.start(dir)) {
            HttpResponse<String> response = admin.get("/api/v1/cluster");
            assertEquals(200, response.statusCode());
            JsonNode body = AdminFixture.json(response);
            assertEquals("standalone", body.get("mode").asText());
            assertEquals("file", body.get("limitsSource").asText());
            assertEquals(0, body.get("shares").size());
            assertFalse(admin.get("/metrics").body().contains("sluice_cluster_"));
        }
    }

    @Test
    void aMemberShowsItsModeTheSluicesSeenAndItsShares() throws IOException {
        BucketKey key = new BucketKey(
                Direction.PUBLISH, new ScopeRef(PulsarScopes.NAMESPACE, "public/default"), Dimension.MESSAGES);
        ClusterStatus status = new ClusterStatus(
                "prod",
                "host-a:1",
                SyncMode.STALE,
                false,
                Instant.parse("2026-01-02T03:04:05Z"),
                Duration.ofSeconds(1),
                List.of(new MemberSeen("host-a:1", 10), new MemberSeen("host-b:1", 900)),
                List.of(new BucketShare(key, 1000, 0.75, 2)));
        Store store = new Store();
        try (AdminFixture admin = AdminFixture.inCluster(dir, store, () -> status)) {
            JsonNode body = AdminFixture.json(admin.get("/api/v1/cluster"));
            assertEquals("stale", body.get("mode").asText());
            assertEquals("prod", body.get("clusterId").asText());
            assertFalse(body.get("storeUp").asBoolean());
            assertEquals("2026-01-02T03:04:05Z", body.get("lastSync").asText());
            assertEquals(1000, body.get("syncIntervalMillis").asLong());
            assertEquals("store", body.get("limitsSource").asText());
            assertEquals(1, body.get("limitsVersion").asLong(), "an empty store got the first version");
            assertEquals("host-b:1", body.get("members").get(1).get("member").asText());
            JsonNode share = body.get("shares").get(0);
            assertEquals("pulsar", share.get("protocol").asText());
            assertEquals("namespace", share.get("scope").asText());
            assertEquals("public/default", share.get("name").asText());
            assertEquals("publish", share.get("direction").asText());
            assertEquals("messages", share.get("dimension").asText());
            assertEquals(750.0, share.get("rate").asDouble());
            assertEquals(2, share.get("members").asInt());

            String metrics = admin.get("/metrics").body();
            assertTrue(metrics.contains("sluice_cluster_store_up 0.0"), metrics);
            assertTrue(metrics.contains("sluice_cluster_members 2.0"), metrics);
            assertTrue(
                    metrics.contains(
                            "sluice_cluster_share{dimension=\"messages\",direction=\"publish\",name=\"public/default\","
                                    + "protocol=\"pulsar\",scope=\"namespace\"} 0.75"),
                    metrics);
        }
    }

    @Test
    void aLimitsChangeWhileTheStoreIsDownIsRefusedWith503AndChangesNothing() throws IOException {
        Store store = new Store();
        try (AdminFixture admin = AdminFixture.inCluster(dir, store, ClusterStatus::standalone)) {
            String limit = "{\"publish\":{\"messagesPerSecond\":500}}";
            assertEquals(200, admin.put("/api/v1/limits/namespaces/t/n", limit).statusCode());
            store.down = true;
            HttpResponse<String> refused =
                    admin.put("/api/v1/limits/namespaces/t/n", "{\"publish\":{\"messagesPerSecond\":1}}");
            assertEquals(503, refused.statusCode());
            assertTrue(AdminFixture.error(refused).contains("cluster store"), refused.body());
            assertEquals(503, admin.delete("/api/v1/limits/namespaces/t/n").statusCode());
            assertEquals(
                    500.0,
                    AdminFixture.json(admin.get("/api/v1/limits/namespaces/t/n"))
                            .get("publish")
                            .get("messagesPerSecond")
                            .asDouble(),
                    "the last document stays in force");
        }
    }
}
