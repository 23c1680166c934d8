package io.sluice.admin;

import io.sluice.limits.ConnectionLimits;
import io.sluice.limits.Limit;
import io.sluice.limits.LimitsDocument;
import io.sluice.limits.LimitsJson;
import io.sluice.limits.LimitsStore;
import io.sluice.limits.OnExceed;
import io.sluice.limits.RateLimit;
import io.sluice.pulsar.scopes.PulsarScopes;
import io.sluice.quota.NanoClock;
import io.sluice.quota.QuotaEngine;
import io.sluice.testing.LeakCheck;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

import static io.sluice.admin.AdminFixture.error;
import static io.sluice.admin.AdminFixture.json;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

@ExtendWith(LeakCheck.class)
class LimitsEndpointsTest {

    private static final String LIMIT = """
            {"publish": {"messagesPerSecond": 1000, "bytesPerSecond": 1048576}, "onExceed": "reject"}""";
    private static final Limit EXPECTED =
            Limit.publish(new RateLimit(1000.0, 1048576.0, null, null)).withOnExceed(OnExceed.REJECT);

    @TempDir
    Path dir;

    private AdminFixture admin;

    @BeforeEach
    void start() throws IOException {
        admin = AdminFixture.start(dir);
    }

    @AfterEach
    void stop() {
        admin.close();
    }

    @Test
    void anEmptyStoreHasNoLimitsAndDefaultConnectionLimits() {
        HttpResponse<String> response = admin.get("/api/v1/limits");

        assertEquals(200, response.statusCode());
        assertEquals(
                "application/json",
                response.headers().firstValue("Content-Type").orElseThrow());
        assertEquals(LimitsDocument.empty(), parseDocument(response));
    }

    @Test
    void topicLimitIsStoredPersistedAndInForceBeforeTheAnswer() throws IOException {
        HttpResponse<String> put = admin.put("/api/v1/limits/topics/persistent/public/default/orders", LIMIT);

        assertEquals(200, put.statusCode(), put.body());
        assertEquals(EXPECTED, LimitsJson.parseLimit(bytes(put)));
        assertEquals(
                EXPECTED, admin.engine.limits().limitsOf(PulsarScopes.TOPIC).get("persistent://public/default/orders"));
        assertEquals(
                EXPECTED,
                LimitsJson.parseDocument(admin.fileBytes(), AdminFixture.SCOPES)
                        .limitsOf(PulsarScopes.TOPIC)
                        .get("persistent://public/default/orders"));

        HttpResponse<String> get = admin.get("/api/v1/limits/topics/persistent/public/default/orders");
        assertEquals(200, get.statusCode());
        assertEquals(EXPECTED, LimitsJson.parseLimit(bytes(get)));
    }

    @Test
    void nonPersistentTopicsAreKeyedWithTheirDomain() {
        assertEquals(
                200,
                admin.put("/api/v1/limits/topics/non-persistent/public/default/ticks", LIMIT)
                        .statusCode());

        assertEquals(
                EXPECTED,
                admin.engine.limits().limitsOf(PulsarScopes.TOPIC).get("non-persistent://public/default/ticks"));
        assertEquals(
                404,
                admin.get("/api/v1/limits/topics/persistent/public/default/ticks")
                        .statusCode());
    }

    @Test
    void aPartitionHasItsOwnLimit() {
        assertEquals(
                200,
                admin.put("/api/v1/limits/topics/persistent/public/default/orders-partition-3", LIMIT)
                        .statusCode());

        assertEquals(
                EXPECTED,
                admin.engine
                        .limits()
                        .limitsOf(PulsarScopes.TOPIC)
                        .get("persistent://public/default/orders-partition-3"));
    }

    @Test
    void percentEncodedTopicNamesAreDecoded() {
        assertEquals(
                200,
                admin.put("/api/v1/limits/topics/persistent/public/default/a%20b+c", LIMIT)
                        .statusCode());

        assertEquals(
                EXPECTED, admin.engine.limits().limitsOf(PulsarScopes.TOPIC).get("persistent://public/default/a b+c"));
    }

    @Test
    void deleteRemovesTheLimitAndAnswers204() throws IOException {
        admin.put("/api/v1/limits/topics/persistent/public/default/orders", LIMIT);

        HttpResponse<String> delete = admin.delete("/api/v1/limits/topics/persistent/public/default/orders");

        assertEquals(204, delete.statusCode());
        assertEquals("", delete.body());
        assertTrue(admin.engine.limits().limitsOf(PulsarScopes.TOPIC).isEmpty());
        assertTrue(LimitsJson.parseDocument(admin.fileBytes(), AdminFixture.SCOPES)
                .limitsOf(PulsarScopes.TOPIC)
                .isEmpty());
        HttpResponse<String> get = admin.get("/api/v1/limits/topics/persistent/public/default/orders");
        assertEquals(404, get.statusCode());
        assertEquals("no limit for topic persistent://public/default/orders", error(get));
    }

    @Test
    void deletingAnAbsentLimitIs404AndChangesNothing() throws IOException {
        byte[] before = admin.fileBytes();

        for (String path : new String[] {
            "/api/v1/limits/topics/persistent/public/default/none",
            "/api/v1/limits/namespaces/public/none",
            "/api/v1/limits/tenants/none",
            "/api/v1/limits/proxy"
        }) {
            HttpResponse<String> delete = admin.delete(path);
            assertEquals(404, delete.statusCode(), path);
            assertTrue(error(delete).startsWith("no limit for "), delete.body());
        }
        assertEquals(new String(before, StandardCharsets.UTF_8), new String(admin.fileBytes(), StandardCharsets.UTF_8));
    }

    @Test
    void namespaceLimit() {
        assertEquals(404, admin.get("/api/v1/limits/namespaces/public/default").statusCode());

        HttpResponse<String> put = admin.put("/api/v1/limits/namespaces/public/default", LIMIT);

        assertEquals(200, put.statusCode(), put.body());
        assertEquals(
                EXPECTED, admin.engine.limits().limitsOf(PulsarScopes.NAMESPACE).get("public/default"));
        assertEquals(EXPECTED, LimitsJson.parseLimit(bytes(admin.get("/api/v1/limits/namespaces/public/default"))));
        assertEquals(
                204, admin.delete("/api/v1/limits/namespaces/public/default").statusCode());
        assertTrue(admin.engine.limits().limitsOf(PulsarScopes.NAMESPACE).isEmpty());
    }

    @Test
    void tenantLimit() {
        assertEquals(404, admin.get("/api/v1/limits/tenants/public").statusCode());

        assertEquals(200, admin.put("/api/v1/limits/tenants/public", LIMIT).statusCode());

        assertEquals(
                EXPECTED, admin.engine.limits().limitsOf(PulsarScopes.TENANT).get("public"));
        assertEquals(EXPECTED, LimitsJson.parseLimit(bytes(admin.get("/api/v1/limits/tenants/public"))));
        assertEquals(204, admin.delete("/api/v1/limits/tenants/public").statusCode());
        assertTrue(admin.engine.limits().limitsOf(PulsarScopes.TENANT).isEmpty());
    }

    @Test
    void proxyLimit() {
        HttpResponse<String> absent = admin.get("/api/v1/limits/proxy");
        assertEquals(404, absent.statusCode());
        assertEquals("no limit for the proxy", error(absent));

        assertEquals(200, admin.put("/api/v1/limits/proxy", LIMIT).statusCode());

        assertEquals(EXPECTED, admin.engine.limits().proxy());
        assertEquals(EXPECTED, LimitsJson.parseLimit(bytes(admin.get("/api/v1/limits/proxy"))));
        assertEquals(204, admin.delete("/api/v1/limits/proxy").statusCode());
        assertNull(admin.engine.limits().proxy());
    }

    @Test
    void putAnswersTheLimitWithDefaultsFilledIn() {
        HttpResponse<String> put =
                admin.put("/api/v1/limits/tenants/public", "{\"dispatch\": {\"messagesPerSecond\": 5}}");

        assertEquals(200, put.statusCode());
        assertEquals("delay", json(put).get("onExceed").asText());
        assertEquals(1.0, json(put).get("dispatch").get("burstSeconds").asDouble());
    }

    @Test
    void connectionLimitsHaveDefaultsAndCanBeSet() {
        assertEquals(
                ConnectionLimits.DEFAULT, LimitsJson.parseConnection(bytes(admin.get("/api/v1/limits/connection"))));

        HttpResponse<String> put = admin.put("/api/v1/limits/connection", "{\"maxPendingSends\": 500}");

        assertEquals(200, put.statusCode(), put.body());
        ConnectionLimits expected = new ConnectionLimits(500, ConnectionLimits.DEFAULT.maxHeldBytes());
        assertEquals(expected, LimitsJson.parseConnection(bytes(put)));
        assertEquals(expected, admin.engine.limits().connection());
        assertEquals(expected, LimitsJson.parseConnection(bytes(admin.get("/api/v1/limits/connection"))));
    }

    @Test
    void putOfTheWholeDocumentReplacesEverything() {
        admin.put("/api/v1/limits/tenants/old", LIMIT);
        String document = """
                {
                  "topics": {"persistent://public/default/orders": %s},
                  "namespaces": {"public/default": %s},
                  "proxy": {"publish": {"bytesPerSecond": 1e9}},
                  "connection": {"maxPendingSends": 1000, "maxHeldBytes": 1000000}
                }""".formatted(LIMIT, LIMIT);

        HttpResponse<String> put = admin.put("/api/v1/limits", document);

        assertEquals(200, put.statusCode(), put.body());
        LimitsDocument expected =
                LimitsJson.parseDocument(document.getBytes(StandardCharsets.UTF_8), AdminFixture.SCOPES);
        assertEquals(expected, parseDocument(put));
        assertEquals(expected, admin.engine.limits());
        assertTrue(admin.engine.limits().limitsOf(PulsarScopes.TENANT).isEmpty());
        assertEquals(expected, parseDocument(admin.get("/api/v1/limits")));
    }

    @Test
    void aStoreReopenedFromTheFileHasTheSameLimits() throws IOException {
        admin.put("/api/v1/limits/topics/persistent/public/default/orders", LIMIT);
        admin.put("/api/v1/limits/namespaces/public/default", LIMIT);
        admin.put("/api/v1/limits/tenants/public", LIMIT);
        admin.put("/api/v1/limits/proxy", LIMIT);
        admin.put("/api/v1/limits/connection", "{\"maxHeldBytes\": 1024}");

        QuotaEngine fresh = new QuotaEngine(LimitsDocument.empty(), NanoClock.SYSTEM);
        LimitsStore reopened = LimitsStore.open(admin.limitsFile, AdminFixture.SCOPES, fresh::update);

        assertEquals(admin.store.current(), reopened.current());
        assertEquals(admin.engine.limits(), fresh.limits());
        assertEquals(EXPECTED, fresh.limits().proxy());
    }

    @Test
    void queryStringsAreIgnored() {
        assertEquals(200, admin.get("/api/v1/limits?pretty=true").statusCode());
    }

    private static LimitsDocument parseDocument(HttpResponse<String> response) {
        return LimitsJson.parseDocument(bytes(response), AdminFixture.SCOPES);
    }

    private static byte[] bytes(HttpResponse<String> response) {
        return response.body().getBytes(StandardCharsets.UTF_8);
    }
}
