package io.sluice.admin;

import com.fasterxml.jackson.databind.JsonNode;
import io.sluice.pulsar.scopes.PulsarScopes;
import io.sluice.quota.QuotaDecision;
import io.sluice.quota.QuotaPath;
import io.sluice.testing.LeakCheck;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.net.http.HttpResponse;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * An adaptive limit through the admin API: set and read back as any limit, a field out of range
 * refused naming it, and its state at {@code GET /api/v1/adaptive} and in the metrics once the
 * controller has run.
 */
@ExtendWith(LeakCheck.class)
class AdaptiveEndpointTest {

    private static final String TENANT_PATH = "/api/v1/limits/tenants/bulk";
    private static final String LIMIT = "{\"publish\": {\"messagesPerSecond\": 100000,"
            + " \"adaptive\": {\"targetLatencyMillis\": 20, \"floorFraction\": 0.1}}}";

    @TempDir
    Path dir;

    @Test
    void anAdaptiveLimitIsSetReadBackAndShownWithTheLatencyItFollows() throws Exception {
        try (AdminFixture admin = AdminFixture.start(dir)) {
            assertEquals(
                    0,
                    AdminFixture.json(admin.get("/api/v1/adaptive"))
                            .get("scopes")
                            .size());
            assertEquals(200, admin.put(TENANT_PATH, LIMIT).statusCode());
            JsonNode read =
                    AdminFixture.json(admin.get(TENANT_PATH)).get("publish").get("adaptive");
            assertEquals(20.0, read.get("targetLatencyMillis").asDouble());
            assertEquals(0.1, read.get("floorFraction").asDouble());

            // Traffic through the tenant, then a slow broker for two intervals.
            QuotaPath path = admin.engine.publishPath(PulsarScopes.topic("persistent://bulk/default/t", null));
            QuotaDecision decision = new QuotaDecision();
            path.tryAcquire(System.nanoTime(), 50_000, 0, decision);
            admin.adaptive.tick();
            for (int i = 0; i < 100; i++) {
                admin.pulsarLatency.record(200_000_000L, System.nanoTime());
            }
            path.tryAcquire(System.nanoTime(), 50_000, 0, decision);
            Thread.sleep(50);
            admin.adaptive.tick();

            JsonNode scope = AdminFixture.json(admin.get("/api/v1/adaptive"))
                    .get("scopes")
                    .get(0);
            assertEquals("pulsar", scope.get("protocol").asText());
            assertEquals("tenant", scope.get("scope").asText());
            assertEquals("bulk", scope.get("name").asText());
            assertEquals("messages", scope.get("unit").asText());
            assertEquals(100_000.0, scope.get("ceiling").asDouble());
            assertTrue(scope.get("effectiveRate").asDouble() < 100_000, scope.toString());
            assertEquals("down", scope.get("direction").asText());
            assertEquals(20.0, scope.get("targetLatencyMillis").asDouble());
            assertTrue(scope.get("latencyP99Millis").asDouble() > 150, scope.toString());

            String metrics = admin.get("/metrics").body();
            assertTrue(
                    metrics.contains(
                            "sluice_adaptive_ceiling{name=\"bulk\",protocol=\"pulsar\",scope=\"tenant\",unit=\"messages\"} 100000.0"),
                    metrics);
            assertTrue(metrics.contains("sluice_adaptive_rate{name=\"bulk\""), metrics);
            assertTrue(metrics.contains("sluice_adaptive_target_seconds{name=\"bulk\""), metrics);
        }
    }

    @Test
    void aFieldOutOfRangeIsRefusedNamingItAndChangesNothing() throws IOException {
        try (AdminFixture admin = AdminFixture.start(dir)) {
            HttpResponse<String> refused = admin.put(
                    TENANT_PATH,
                    "{\"publish\": {\"messagesPerSecond\": 100000, \"adaptive\": {\"targetLatencyMillis\": -1}}}");
            assertEquals(400, refused.statusCode());
            assertTrue(
                    refused.body().contains("publish.adaptive.targetLatencyMillis: must be between 0.1 and 60000"),
                    refused.body());
            HttpResponse<String> dispatch = admin.put(
                    TENANT_PATH,
                    "{\"dispatch\": {\"messagesPerSecond\": 10, \"adaptive\": {\"targetLatencyMillis\": 20}}}");
            assertEquals(400, dispatch.statusCode());
            assertTrue(dispatch.body().contains("dispatch.adaptive"), dispatch.body());
            assertEquals(404, admin.get(TENANT_PATH).statusCode());
        }
    }
}
