package io.sluice.admin.audit;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.netty.handler.codec.http.DefaultHttpHeaders;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.sluice.admin.http.ApiRequest;
import io.sluice.admin.http.ApiResponse;
import io.sluice.admin.http.Caller;
import io.sluice.admin.http.RequestPath;
import io.sluice.admin.http.Requester;
import io.sluice.admin.http.RouteHandler;
import io.sluice.cluster.ClusterStatus;
import io.sluice.cluster.SyncMode;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;

class AuditTrailTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Clock CLOCK = Clock.fixed(Instant.parse("2026-12-02T01:00:00Z"), ZoneOffset.UTC);

    private final AtomicInteger value = new AtomicInteger();
    private final RouteHandler current =
            request -> ApiResponse.json(HttpResponseStatus.OK, Map.of("value", value.get()));
    private final RouteHandler increment = request -> {
        value.incrementAndGet();
        return ApiResponse.json(HttpResponseStatus.OK, Map.of("value", value.get()));
    };

    @Test
    void theLastThousandChangesAreKeptOldestFirst() throws IOException {
        AuditTrail trail = new AuditTrail(CLOCK, ClusterStatus::standalone);
        RouteHandler audited = trail.audited(increment, current);

        for (int i = 0; i < AuditTrail.KEPT + 5; i++) {
            audited.handle(request());
        }

        JsonNode entries = entries(trail);
        assertEquals(AuditTrail.KEPT, entries.size());
        assertEquals(5, entries.get(0).at("/before/value").asInt(), "the five oldest were dropped");
        assertEquals(
                AuditTrail.KEPT + 5,
                entries.get(AuditTrail.KEPT - 1).at("/after/value").asInt());
        assertEquals("2026-12-02T01:00:00Z", entries.get(0).get("time").asText());
        assertEquals("read", entries.get(0).get("token").asText());
    }

    @Test
    void aSluiceOfAClusterIsNamedAndARefusedChangeIsNotRecorded() throws IOException {
        ClusterStatus member =
                new ClusterStatus("prod", "sluice-b", SyncMode.SYNCED, true, null, null, List.of(), List.of());
        AuditTrail trail = new AuditTrail(CLOCK, () -> member);

        trail.audited(increment, current).handle(request());
        trail.audited(request -> ApiResponse.error(HttpResponseStatus.BAD_REQUEST, "no"), current)
                .handle(request());

        JsonNode entries = entries(trail);
        assertEquals(1, entries.size());
        assertEquals("sluice-b", entries.get(0).get("sluice").asText());
    }

    private static ApiRequest request() {
        return new ApiRequest(
                HttpMethod.PUT,
                RequestPath.parse("/api/v1/limits/proxy"),
                Map.of(),
                new DefaultHttpHeaders(),
                new byte[0],
                new Requester("/10.0.0.7:5000", Caller.READ));
    }

    private static JsonNode entries(AuditTrail trail) throws IOException {
        return JSON.readTree(trail.get(null).body()).get("entries");
    }
}
