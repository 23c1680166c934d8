package io.sluice.admin;

import io.sluice.limits.LimitsDocument;
import io.sluice.testing.LeakCheck;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.IOException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.stream.Stream;

import static io.sluice.admin.AdminFixture.error;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Every error status of docs/REFERENCE.md, "Admin REST API", and that a rejected request changes neither the file nor the engine. */
@ExtendWith(LeakCheck.class)
class RejectedRequestsTest {

    private static final String TOPIC = "/api/v1/limits/topics/persistent/public/default/orders";

    @TempDir
    Path dir;

    private AdminFixture admin;
    private byte[] fileBefore;
    private LimitsDocument limitsBefore;

    @BeforeEach
    void startWithSomeLimits() throws IOException {
        admin = AdminFixture.start(dir);
        assertEquals(
                200,
                admin.put(TOPIC, "{\"publish\": {\"messagesPerSecond\": 10}}").statusCode());
        assertEquals(
                200,
                admin.put("/api/v1/limits/proxy", "{\"publish\": {\"bytesPerSecond\": 1e6}}")
                        .statusCode());
        fileBefore = admin.fileBytes();
        limitsBefore = admin.engine.limits();
    }

    @AfterEach
    void stop() {
        admin.close();
    }

    /**
     * @param method the HTTP method
     * @param path the request path
     * @param body the JSON body, or {@code null} for none
     * @param status the expected status
     * @param message text the error message must contain, naming the field
     */
    record Case(String method, String path, String body, int status, String message) {
        @Override
        public String toString() {
            return status + " " + method + " " + path + (body == null ? "" : " " + body);
        }
    }

    static Stream<Case> badRequests() {
        return Stream.of(
                new Case("PUT", TOPIC, "{\"publish\": ", 400, "malformed JSON"),
                new Case("PUT", TOPIC, "", 400, ""),
                new Case("PUT", TOPIC, "[]", 400, "must be a JSON object"),
                new Case("PUT", TOPIC, "{\"publish\": {\"messagesPerSecond\": 1}} {}", 400, "unexpected content"),
                new Case("PUT", TOPIC, "{\"publish\": {\"messagesPerSecond\": 1, \"burst\": 2}}", 400, "unknown field"),
                new Case(
                        "PUT",
                        TOPIC,
                        "{\"publish\": {\"messagesPerSecond\": -1}}",
                        400,
                        "publish.messagesPerSecond: must be a positive finite number"),
                new Case("PUT", TOPIC, "{\"publish\": {\"messagesPerSecond\": 0}}", 400, "publish.messagesPerSecond"),
                new Case("PUT", TOPIC, "{\"dispatch\": {\"bytesPerSecond\": 1e400}}", 400, "dispatch.bytesPerSecond"),
                new Case("PUT", TOPIC, "{\"dispatch\": {\"bytesPerSecond\": NaN}}", 400, ""),
                new Case(
                        "PUT",
                        TOPIC,
                        "{\"publish\": {\"messagesPerSecond\": \"100\"}}",
                        400,
                        "publish.messagesPerSecond: must be a number"),
                new Case(
                        "PUT",
                        TOPIC,
                        "{\"publish\": {\"messagesPerSecond\": 1, \"burstSeconds\": 0.001}}",
                        400,
                        "publish.burstSeconds: must be between 0.01 and 60"),
                new Case(
                        "PUT",
                        TOPIC,
                        "{\"publish\": {\"messagesPerSecond\": 1, \"burstSeconds\": 61}}",
                        400,
                        "publish.burstSeconds"),
                new Case("PUT", TOPIC, "{\"onExceed\": \"drop\"}", 400, "onExceed: must be one of"),
                new Case(
                        "PUT",
                        "/api/v1/limits",
                        "{\"topics\": {\"orders\": {}}}",
                        400,
                        "topics[\"orders\"]: must be a topic name"),
                new Case("PUT", "/api/v1/limits", "{\"tenants\": {\"public\": null}}", 400, "tenants[\"public\"]"),
                new Case(
                        "PUT",
                        "/api/v1/limits",
                        "{\"proxy\": {\"publish\": {\"messagesPerSecond\": -5}}, \"tenants\": {}}",
                        400,
                        "proxy.publish.messagesPerSecond"),
                new Case("PUT", "/api/v1/limits", "{\"limits\": {}}", 400, "unknown field"),
                new Case(
                        "PUT",
                        "/api/v1/limits/connection",
                        "{\"maxPendingSends\": 0}",
                        400,
                        "maxPendingSends: must be a positive integer"),
                new Case("PUT", "/api/v1/limits/connection", "{\"maxHeldBytes\": 1.5}", 400, "maxHeldBytes"),
                new Case(
                        "PUT",
                        "/api/v1/limits/topics/durable/public/default/orders",
                        "{}",
                        400,
                        "domain: must be persistent or non-persistent"),
                new Case("GET", "/api/v1/limits/topics/durable/public/default/orders", null, 400, "domain"),
                new Case("DELETE", "/api/v1/limits/topics/durable/public/default/orders", null, 400, "domain"),
                new Case(
                        "PUT",
                        "/api/v1/limits/topics/persistent/public/default/a%2Fb",
                        "{}",
                        400,
                        "topic: must be a topic name"),
                new Case(
                        "PUT",
                        "/api/v1/limits/topics/persistent/pub%20lic/default/orders",
                        "{}",
                        400,
                        "topic: must be a topic name"),
                new Case(
                        "PUT",
                        "/api/v1/limits/namespaces/public/de*fault",
                        "{}",
                        400,
                        "namespace: must be a namespace name"),
                new Case("DELETE", "/api/v1/limits/namespaces/public/de*fault", null, 400, "namespace"),
                new Case("PUT", "/api/v1/limits/tenants/pub%20lic", "{}", 400, "tenant: must be a tenant name"),
                new Case("GET", "/api/v1/limits/tenants/pub%20lic", null, 400, "tenant"),
                new Case("GET", "/api/v1/nothing", null, 404, "no such path: /api/v1/nothing"),
                new Case("GET", "/api/v1/admission", null, 404, "no such path"),
                new Case("GET", "/api/v1/limits/", null, 404, "no such path"),
                new Case("GET", "/api/v1/limits/topics/persistent/public/default", null, 404, "no such path"),
                new Case(
                        "PUT",
                        "/api/v1/limits/topics/persistent/public/default/orders/extra",
                        "{}",
                        404,
                        "no such path"),
                new Case("DELETE", "/api/v1/limits/tenants/nobody", null, 404, "no limit for tenant nobody"),
                new Case(
                        "POST",
                        "/api/v1/limits",
                        "{}",
                        405,
                        "method POST is not allowed on /api/v1/limits; allowed: GET, PUT"),
                new Case("DELETE", "/api/v1/limits", null, 405, "allowed: GET, PUT"),
                new Case("DELETE", "/api/v1/limits/connection", null, 405, "allowed: GET, PUT"),
                new Case("POST", TOPIC, "{}", 405, "allowed: GET, PUT, DELETE"),
                new Case("PUT", "/metrics", "{}", 405, "allowed: GET"),
                new Case("DELETE", "/api/v1/throttled", null, 405, "allowed: GET"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("badRequests")
    void isRejectedWithAnErrorNamingTheProblemAndChangesNothing(Case bad) throws IOException {
        HttpRequest.BodyPublisher body = bad.body() == null
                ? HttpRequest.BodyPublishers.noBody()
                : HttpRequest.BodyPublishers.ofString(bad.body());
        HttpResponse<String> response = admin.send(admin.request(bad.path())
                .header("Content-Type", "application/json")
                .method(bad.method(), body)
                .build());

        assertEquals(bad.status(), response.statusCode(), response.body());
        assertEquals(
                "application/json",
                response.headers().firstValue("Content-Type").orElseThrow());
        assertTrue(error(response).contains(bad.message()), () -> "error was: " + response.body());
        assertUnchanged();
    }

    @Test
    void wrongMethodNamesTheAllowedOnesInTheAllowHeader() {
        HttpResponse<String> response = admin.send(
                admin.request(TOPIC).POST(HttpRequest.BodyPublishers.noBody()).build());

        assertEquals(405, response.statusCode());
        assertEquals("GET, PUT, DELETE", response.headers().firstValue("Allow").orElseThrow());
    }

    @Test
    void putWithoutJsonContentTypeIs415() throws IOException {
        String limit = "{\"publish\": {\"messagesPerSecond\": 99}}";
        for (String type :
                new String[] {"text/plain", "application/x-www-form-urlencoded", "application/json; charset=utf-16"}) {
            HttpResponse<String> response = admin.send(admin.request(TOPIC)
                    .header("Content-Type", type)
                    .PUT(HttpRequest.BodyPublishers.ofString(limit))
                    .build());
            assertEquals(415, response.statusCode(), type);
            assertTrue(error(response).startsWith("Content-Type: must be application/json"), response.body());
        }
        HttpResponse<String> untyped = admin.send(admin.request(TOPIC)
                .PUT(HttpRequest.BodyPublishers.ofString(limit))
                .build());
        assertEquals(415, untyped.statusCode());
        assertUnchanged();

        HttpResponse<String> withCharset = admin.send(admin.request(TOPIC)
                .header("Content-Type", "Application/JSON; charset=\"UTF-8\"")
                .PUT(HttpRequest.BodyPublishers.ofString(limit))
                .build());
        assertEquals(200, withCharset.statusCode(), withCharset.body());
    }

    @Test
    void bodyOverOneMebibyteIs413AndTheConnectionStaysUsable() throws IOException {
        String padding = " ".repeat(AdminServer.MAX_BODY_BYTES);
        HttpResponse<String> response = admin.put(TOPIC, "{\"publish\": {\"messagesPerSecond\": 99}}" + padding);

        assertEquals(413, response.statusCode());
        assertEquals("body: must be at most 1048576 bytes", error(response));
        assertUnchanged();
        assertEquals(200, admin.get("/api/v1/limits").statusCode());
    }

    @Test
    void bodyOfExactlyOneMebibyteIsRead() {
        String limit = "{\"publish\": {\"messagesPerSecond\": 99}}";
        HttpResponse<String> response =
                admin.put(TOPIC, limit + " ".repeat(AdminServer.MAX_BODY_BYTES - limit.length()));

        assertEquals(200, response.statusCode(), response.body());
    }

    @Test
    void chunkedBodyOverOneMebibyteIs413() throws IOException {
        byte[] body =
                ("{\"publish\": {\"messagesPerSecond\": 99}}" + " ".repeat(AdminServer.MAX_BODY_BYTES)).getBytes();
        // An input stream has no known length, so the client sends it chunked.
        HttpResponse<String> response = admin.send(admin.request(TOPIC)
                .header("Content-Type", "application/json")
                .PUT(HttpRequest.BodyPublishers.ofInputStream(() -> new java.io.ByteArrayInputStream(body)))
                .build());

        assertEquals(413, response.statusCode());
        assertUnchanged();
    }

    private void assertUnchanged() throws IOException {
        assertArrayEquals(fileBefore, admin.fileBytes(), "the limits file changed");
        assertEquals(limitsBefore, admin.engine.limits(), "the limits in force changed");
    }
}
