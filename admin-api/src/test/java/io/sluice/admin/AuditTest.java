package io.sluice.admin;

import com.fasterxml.jackson.databind.JsonNode;
import io.sluice.testing.LeakCheck;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Instant;
import java.util.function.Supplier;

import static io.sluice.admin.AdminFixture.error;
import static io.sluice.admin.AdminFixture.json;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A real admin server with an admin token and a read-only token: the read token reads everything
 * and changes nothing, and every change the admin token makes is in {@code GET /api/v1/audit}.
 */
@ExtendWith(LeakCheck.class)
class AuditTest {

    private static final String ADMIN = "admin-s3cret";
    private static final String READ = "read-only";
    private static final String TOPIC = "/api/v1/limits/topics/persistent/public/default/orders";
    private static final String LIMIT = "{\"publish\": {\"messagesPerSecond\": 99}}";
    private static final String DOCUMENT = "{\"proxy\": {\"publish\": {\"bytesPerSecond\": 1e9}}}";

    @TempDir
    Path dir;

    private AdminFixture admin;

    @BeforeEach
    void start() throws IOException {
        admin = AdminFixture.withTokens(dir, ADMIN, READ);
    }

    @AfterEach
    void stop() {
        admin.close();
    }

    @Test
    void theReadTokenReadsEveryApiPathButChangesNothing() throws IOException {
        for (String path : new String[] {"/api/v1/limits", TOPIC, "/api/v1/throttled", "/api/v1/audit"}) {
            int status = admin.send(admin.request(path, READ).GET().build()).statusCode();
            assertTrue(status == 200 || status == 404, path + " answered " + status);
        }
        byte[] before = admin.fileBytes();

        for (Supplier<HttpRequest.Builder> change : changes()) {
            HttpResponse<String> refused = admin.send(change.get().build());
            assertEquals(403, refused.statusCode(), refused.body());
            assertTrue(error(refused).startsWith("Authorization: the read-only token may not "), refused.body());
        }

        assertArrayEquals(before, admin.fileBytes());
        assertEquals(0, audit().size(), "a refused change was audited");
    }

    @Test
    void everyChangeIsAuditedWithWhoWhatAndBeforeAndAfter() throws IOException {
        Instant start = Instant.now();
        assertEquals(200, admin.send(put(TOPIC, LIMIT, ADMIN).build()).statusCode());
        assertEquals(
                204, admin.send(admin.request(TOPIC, ADMIN).DELETE().build()).statusCode());
        assertEquals(
                200, admin.send(put("/api/v1/limits", DOCUMENT, ADMIN).build()).statusCode());
        assertEquals(
                404, admin.send(admin.request(TOPIC, ADMIN).DELETE().build()).statusCode());
        for (Supplier<HttpRequest.Builder> change : changes()) {
            assertEquals(403, admin.send(change.get().build()).statusCode());
        }

        JsonNode entries = audit();

        assertEquals(3, entries.size(), "only the changes that took effect: " + entries);
        JsonNode put = entries.get(0);
        assertEquals("PUT", put.get("method").asText());
        assertEquals(
                "/api/v1/limits/topics/persistent/public/default/orders",
                put.get("path").asText());
        assertEquals("admin", put.get("token").asText());
        assertTrue(put.get("remoteAddress").asText().contains("127.0.0.1:"), put.toString());
        assertFalse(Instant.parse(put.get("time").asText()).isBefore(start.minusSeconds(1)), put.toString());
        assertTrue(put.get("before").isNull(), "no limit before: " + put);
        assertEquals(99, put.at("/after/publish/messagesPerSecond").asDouble(), put.toString());
        assertFalse(put.has("sluice"), "a Sluice that shares no limits has no name in the cluster: " + put);

        JsonNode delete = entries.get(1);
        assertEquals("DELETE", delete.get("method").asText());
        assertEquals(99, delete.at("/before/publish/messagesPerSecond").asDouble(), delete.toString());
        assertTrue(delete.get("after").isNull(), delete.toString());

        JsonNode document = entries.get(2);
        assertEquals("PUT", document.get("method").asText());
        assertEquals("/api/v1/limits", document.get("path").asText());
        assertTrue(document.at("/before/proxy/publish/bytesPerSecond").isMissingNode(), document.toString());
        assertEquals(1e9, document.at("/after/proxy/publish/bytesPerSecond").asDouble(), document.toString());
    }

    /** A limit PUT, a DELETE and a whole-document PUT, each with the read token. */
    private Supplier<HttpRequest.Builder>[] changes() {
        @SuppressWarnings("unchecked")
        Supplier<HttpRequest.Builder>[] changes = new Supplier[] {
            () -> put(TOPIC, LIMIT, READ),
            () -> admin.request(TOPIC, READ).DELETE(),
            () -> put("/api/v1/limits", DOCUMENT, READ)
        };
        return changes;
    }

    private HttpRequest.Builder put(String path, String json, String token) {
        return admin.request(path, token)
                .header("Content-Type", "application/json")
                .PUT(HttpRequest.BodyPublishers.ofString(json));
    }

    private JsonNode audit() {
        HttpResponse<String> response =
                admin.send(admin.request("/api/v1/audit", READ).GET().build());
        assertEquals(200, response.statusCode(), response.body());
        return json(response).get("entries");
    }
}
