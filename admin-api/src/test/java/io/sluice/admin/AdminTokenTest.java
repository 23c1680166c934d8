package io.sluice.admin;

import io.sluice.pulsar.scopes.PulsarScopes;
import io.sluice.testing.LeakCheck;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.IOException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;

import static io.sluice.admin.AdminFixture.error;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

@ExtendWith(LeakCheck.class)
class AdminTokenTest {

    private static final String TOKEN = "s3cret-token";
    private static final String TOPIC = "/api/v1/limits/topics/persistent/public/default/orders";

    @TempDir
    Path dir;

    private AdminFixture admin;

    @BeforeEach
    void start() throws IOException {
        admin = AdminFixture.withToken(dir, TOKEN);
    }

    @AfterEach
    void stop() {
        admin.close();
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "/api/v1/limits",
                "/api/v1/limits/proxy",
                "/api/v1/throttled",
                "/api/v1/topics",
                "/api/v1/openapi.json",
                "/api/v1/no-such-thing",
                "/%61pi/v1/limits",
                "/api/%761/limits"
            })
    void everyApiPathNeedsTheToken(String path) {
        HttpResponse<String> response = admin.send(withoutToken(path));

        assertEquals(401, response.statusCode(), response.body());
        assertEquals("Authorization: missing; send Authorization: Bearer TOKEN", error(response));
        assertEquals(
                "Bearer realm=\"sluice\"",
                response.headers().firstValue("WWW-Authenticate").orElseThrow());
    }

    @ParameterizedTest
    @ValueSource(strings = {"Bearer wrong", "Bearer " + TOKEN + "x", "Bearer", "Basic " + TOKEN, TOKEN, "Bearer  "})
    void aWrongTokenIs401AndChangesNothing(String authorization) throws IOException {
        byte[] before = admin.fileBytes();

        HttpResponse<String> response = admin.send(HttpRequest.newBuilder(admin.uri(TOPIC))
                .header("Authorization", authorization)
                .header("Content-Type", "application/json")
                .PUT(HttpRequest.BodyPublishers.ofString("{\"publish\": {\"messagesPerSecond\": 1}}"))
                .build());

        assertEquals(401, response.statusCode());
        assertEquals("Authorization: wrong bearer token", error(response));
        assertArrayEquals(before, admin.fileBytes());
        assertNull(admin.engine.limits().limitsOf(PulsarScopes.TOPIC).get("persistent://public/default/orders"));
    }

    @Test
    void theRightTokenIsAccepted() {
        assertEquals(
                200,
                admin.put(TOPIC, "{\"publish\": {\"messagesPerSecond\": 1}}").statusCode());
        assertEquals(200, admin.get(TOPIC).statusCode());
    }

    @Test
    void theSchemeIsCaseInsensitive() {
        HttpResponse<String> response = admin.send(HttpRequest.newBuilder(admin.uri("/api/v1/limits"))
                .header("Authorization", "bearer " + TOKEN)
                .build());

        assertEquals(200, response.statusCode());
    }

    @ParameterizedTest
    @ValueSource(strings = {"/metrics", "/healthz", "/readyz"})
    void metricsAndProbesNeedNoToken(String path) {
        assertEquals(200, admin.send(withoutToken(path)).statusCode());
    }

    @Test
    void unknownPathsOutsideTheApiAre404WithoutToken() {
        assertEquals(404, admin.send(withoutToken("/nothing")).statusCode());
    }

    @Test
    void aBlankTokenIsRefused() {
        assertThrows(IllegalArgumentException.class, () -> AdminServer.builder().adminToken(" "));
    }

    private HttpRequest withoutToken(String path) {
        return HttpRequest.newBuilder(admin.uri(path)).GET().build();
    }
}
