package io.sluice.admin;

import com.fasterxml.jackson.databind.JsonNode;
import io.sluice.admission.AdmissionJson;
import io.sluice.admission.AdmissionMode;
import io.sluice.admission.AdmissionSettings;
import io.sluice.admission.RequestType;
import io.sluice.admission.Signal;
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
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import static io.sluice.admin.AdminFixture.error;
import static io.sluice.admin.AdminFixture.json;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code GET PUT /api/v1/admission} over a real controller on fake signals. */
@ExtendWith(LeakCheck.class)
class AdmissionEndpointTest {

    private static final String PATH = "/api/v1/admission";

    @TempDir
    Path dir;

    private final AdmissionHarness admission = new AdmissionHarness(AdmissionMode.ENFORCED);
    private AdminFixture admin;

    @BeforeEach
    void start() throws IOException {
        admin = AdminFixture.withAdmission(dir, null, admission.controller);
    }

    @AfterEach
    void stop() {
        admin.close();
    }

    @Test
    void getAnswersTheControllersStatus() throws IOException {
        admission.overload();
        admission.controller.admit(RequestType.NEW_PRODUCER);

        HttpResponse<String> response = admin.get(PATH);

        assertEquals(200, response.statusCode(), response.body());
        assertEquals(
                "application/json",
                response.headers().firstValue("Content-Type").orElseThrow());
        JsonNode status = json(response);
        assertEquals(AdminFixture.JSON.readTree(AdmissionJson.write(admission.controller.status())), status);
        assertEquals(AdmissionHarness.NOW.toString(), status.get("sampledAt").asText());
        assertEquals("enforced", status.at("/settings/mode").asText());
        assertEquals(
                AdmissionHarness.CPU_THRESHOLD,
                status.at("/settings/thresholds/cpu").asDouble());
        assertTrue(
                status.at("/settings/thresholds/event_loop_lag").isNull(), "a signal without a threshold is not used");
        for (RequestType type : RequestType.values()) {
            assertEquals("OPEN", status.at("/breakers/" + type + "/state").asText(), type.name());
        }
        assertEquals(1, status.at("/breakers/NEW_PRODUCER/rejections").asLong());
        assertEquals(0, status.at("/breakers/NEW_CONNECTION/rejections").asLong());
        assertEquals(
                "Sluice admission control: cpu 0.95 > 0.8; retry later",
                status.at("/breakers/NEW_CONNECTION/reason").asText());
        assertEquals(0.95, status.at("/signals/cpu/value").asDouble());
        assertTrue(status.at("/signals/cpu/breached").asBoolean());
        assertEquals(0.5, status.at("/signals/heap/value").asDouble());
        assertFalse(status.at("/signals/heap/breached").asBoolean());
        assertTrue(status.at("/signals/event_loop_lag/value").isNull(), "a signal without a source is unknown");
        assertEquals(
                RequestType.values().length, status.get("recentTransitions").size());
        assertEquals("CLOSED", status.at("/recentTransitions/0/from").asText());
        assertEquals("OPEN", status.at("/recentTransitions/0/to").asText());
        assertEquals("cpu", status.at("/recentTransitions/0/signal").asText());
    }

    @Test
    void putSwitchesTheModeLiveAndAnswersTheNewStatus() {
        admission.overload();
        AdmissionSettings before = admission.controller.settings();

        HttpResponse<String> monitor = admin.put(PATH, "{\"mode\": \"monitor_only\"}");

        assertEquals(200, monitor.statusCode(), monitor.body());
        assertEquals("monitor_only", json(monitor).at("/settings/mode").asText());
        assertEquals("OPEN", json(monitor).at("/breakers/NEW_CONNECTION/state").asText());
        assertEquals(before.withMode(AdmissionMode.MONITOR_ONLY), admission.controller.settings());
        assertTrue(admission.controller.admit(RequestType.NEW_CONNECTION).admitted(), "monitor_only rejects nothing");
        assertEquals(
                1,
                json(admin.get(PATH))
                        .at("/breakers/NEW_CONNECTION/wouldBeRejections")
                        .asLong());

        HttpResponse<String> enforced = admin.put(PATH, "{\"mode\": \"enforced\"}");

        assertEquals(200, enforced.statusCode(), enforced.body());
        assertEquals("enforced", json(enforced).at("/settings/mode").asText());
        assertEquals(before, admission.controller.settings());
        assertFalse(admission.controller.admit(RequestType.NEW_CONNECTION).admitted(), "enforced rejects while open");
        assertEquals(
                1,
                json(admin.get(PATH)).at("/breakers/NEW_CONNECTION/rejections").asLong());
    }

    @Test
    void putChangesAThresholdAndKeepsEverythingElse() {
        AdmissionSettings before = admission.controller.settings();

        HttpResponse<String> response = admin.put(PATH, "{\"thresholds\": {\"cpu\": 0.99}}");

        assertEquals(200, response.statusCode(), response.body());
        assertEquals(before.withThreshold(Signal.CPU, 0.99), admission.controller.settings());
        JsonNode settings = json(admin.get(PATH)).get("settings");
        assertEquals(0.99, settings.at("/thresholds/cpu").asDouble());
        assertEquals(
                AdmissionHarness.HEAP_THRESHOLD, settings.at("/thresholds/heap").asDouble());
        assertEquals("enforced", settings.get("mode").asText());
        assertEquals(1, settings.get("openAfterBreaches").asInt());

        admission.overload();

        JsonNode status = json(admin.get(PATH));
        assertEquals(0.99, status.at("/signals/cpu/threshold").asDouble(), "the next sample uses the new threshold");
        assertFalse(status.at("/signals/cpu/breached").asBoolean());
        assertEquals("CLOSED", status.at("/breakers/NEW_CONNECTION/state").asText());
    }

    /**
     * @param body the PUT body
     * @param message text the error must contain, naming the field
     */
    record BadSettings(String body, String message) {
        @Override
        public String toString() {
            return body.isEmpty() ? "(empty body)" : body;
        }
    }

    static Stream<BadSettings> badSettings() {
        return Stream.of(
                new BadSettings("{\"mode\": ", "malformed JSON"),
                new BadSettings("", "must be a JSON object"),
                new BadSettings("[]", "must be a JSON object"),
                new BadSettings("{\"mode\": \"enforced\"} {}", "malformed JSON"),
                new BadSettings("{\"mode\": \"disabled\", \"mode\": \"enforced\"}", "malformed JSON"),
                new BadSettings("{\"modes\": \"disabled\"}", "modes: unknown field"),
                new BadSettings(
                        "{\"mode\": \"off\"}", "mode: must be one of \"disabled\", \"monitor_only\", \"enforced\""),
                new BadSettings("{\"thresholds\": {\"gpu\": 0.5}}", "thresholds.gpu: unknown signal"),
                new BadSettings(
                        "{\"thresholds\": {\"cpu\": 1.5}}",
                        "thresholds.cpu: must be greater than 0 and at most 1, got 1.5"),
                new BadSettings(
                        "{\"thresholds\": {\"event_loop_lag\": \"200\"}}",
                        "thresholds.event_loop_lag: must be a number"),
                new BadSettings("{\"thresholds\": []}", "thresholds: must be an object"),
                new BadSettings("{\"sampleIntervalMillis\": 1.5}", "sampleIntervalMillis: must be an integer"),
                new BadSettings("{\"openAfterBreaches\": 0}", "openAfterBreaches: must be at least 1"),
                new BadSettings("{\"halfOpenAdmitShare\": -0.1}", "halfOpenAdmitShare: must be at least 0"),
                new BadSettings(
                        "{\"mode\": \"disabled\", \"coolDownMillis\": -1}", "coolDownMillis: must be at least 0"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("badSettings")
    void badSettingsAre400NamingTheFieldAndChangeNothing(BadSettings bad) {
        AdmissionSettings before = admission.controller.settings();

        HttpResponse<String> response = admin.put(PATH, bad.body());

        assertEquals(400, response.statusCode(), response.body());
        assertEquals(
                "application/json",
                response.headers().firstValue("Content-Type").orElseThrow());
        assertTrue(error(response).contains(bad.message()), () -> "error was: " + response.body());
        assertSame(before, admission.controller.settings());
    }

    @Test
    void putWithoutJsonContentTypeIs415AndChangesNothing() {
        AdmissionSettings before = admission.controller.settings();
        for (String type :
                new String[] {"text/plain", "application/x-www-form-urlencoded", "application/json; charset=utf-16"}) {
            HttpResponse<String> response = admin.send(admin.request(PATH)
                    .header("Content-Type", type)
                    .PUT(HttpRequest.BodyPublishers.ofString("{\"mode\": \"disabled\"}"))
                    .build());

            assertEquals(415, response.statusCode(), type);
            assertTrue(error(response).startsWith("Content-Type: must be application/json"), response.body());
        }
        HttpResponse<String> untyped = admin.send(admin.request(PATH)
                .PUT(HttpRequest.BodyPublishers.ofString("{\"mode\": \"disabled\"}"))
                .build());
        assertEquals(415, untyped.statusCode());
        assertSame(before, admission.controller.settings());
    }

    @Test
    void otherMethodsAre405NamingGetAndPut() {
        for (String method : new String[] {"POST", "DELETE", "PATCH"}) {
            HttpResponse<String> response = admin.send(admin.request(PATH)
                    .header("Content-Type", "application/json")
                    .method(method, HttpRequest.BodyPublishers.ofString("{}"))
                    .build());

            assertEquals(405, response.statusCode(), method);
            assertEquals("GET, PUT", response.headers().firstValue("Allow").orElseThrow());
            assertTrue(error(response).contains("allowed: GET, PUT"), response.body());
        }
    }

    @Test
    void bodyOverOneMebibyteIs413AndChangesNothing() {
        AdmissionSettings before = admission.controller.settings();

        HttpResponse<String> response =
                admin.put(PATH, "{\"mode\": \"disabled\"}" + " ".repeat(AdminServer.MAX_BODY_BYTES));

        assertEquals(413, response.statusCode());
        assertEquals("body: must be at most 1048576 bytes", error(response));
        assertSame(before, admission.controller.settings());
    }

    @Test
    void withoutAdmissionControlThePathIs404() throws IOException {
        try (AdminFixture plain = AdminFixture.start(Files.createDirectory(dir.resolve("plain")))) {
            for (HttpResponse<String> response :
                    List.of(plain.get(PATH), plain.put(PATH, "{\"mode\": \"enforced\"}"))) {
                assertEquals(404, response.statusCode());
                assertEquals("no such path: " + PATH, error(response));
            }
        }
    }

    @Test
    void theTokenIsNeededLikeOnEveryApiPath() throws IOException {
        AdmissionSettings before = admission.controller.settings();
        try (AdminFixture secured = AdminFixture.withAdmission(
                Files.createDirectory(dir.resolve("secured")), "s3cret", admission.controller)) {
            HttpResponse<String> anonymous =
                    secured.send(HttpRequest.newBuilder(secured.uri(PATH)).GET().build());
            HttpResponse<String> wrongToken = secured.send(HttpRequest.newBuilder(secured.uri(PATH))
                    .header("Authorization", "Bearer wrong")
                    .header("Content-Type", "application/json")
                    .PUT(HttpRequest.BodyPublishers.ofString("{\"mode\": \"disabled\"}"))
                    .build());

            assertEquals(401, anonymous.statusCode());
            assertEquals("Authorization: missing; send Authorization: Bearer TOKEN", error(anonymous));
            assertEquals(401, wrongToken.statusCode());
            assertEquals("Authorization: wrong bearer token", error(wrongToken));
            assertSame(before, admission.controller.settings());

            assertEquals(200, secured.get(PATH).statusCode());
            assertEquals(200, secured.put(PATH, "{\"mode\": \"disabled\"}").statusCode());
            assertEquals(AdmissionMode.DISABLED, admission.controller.settings().mode());
        }
    }
}
