package io.sluice.admission;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import io.sluice.settings.InvalidSettingsException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.nio.charset.StandardCharsets;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class AdmissionSettingsTest {

    private static byte[] bytes(String json) {
        return json.getBytes(StandardCharsets.UTF_8);
    }

    private static AdmissionSettings parse(String json) {
        return AdmissionJson.parseSettings(bytes(json));
    }

    @Test
    void defaultsAreTheIssuesNumbers() {
        AdmissionSettings d = AdmissionSettings.DEFAULTS;
        assertEquals(AdmissionMode.DISABLED, d.mode());
        assertEquals(0.9, d.threshold(Signal.CPU));
        assertEquals(0.9, d.threshold(Signal.HEAP));
        assertEquals(0.9, d.threshold(Signal.DIRECT_MEMORY));
        assertEquals(200.0, d.threshold(Signal.EVENT_LOOP_LAG));
        assertEquals(1000.0, d.threshold(Signal.UPSTREAM_LATENCY_P99));
        assertEquals(5.0, d.threshold(Signal.UPSTREAM_CONNECT_FAILURES));
        assertEquals(1000, d.sampleIntervalMillis());
        assertEquals(3, d.openAfterBreaches());
        assertEquals(10_000, d.coolDownMillis());
        assertEquals(0.1, d.halfOpenAdmitShare());
        assertEquals(3, d.closeAfterHealthy());
        assertEquals(d, parse("{}"));
    }

    @Test
    void jsonRoundTrips() {
        String json = """
                {
                  "mode": "monitor_only",
                  "thresholds": {"cpu": 0.8, "heap": null, "event_loop_lag": 150.5, "upstream_connect_failures": 0},
                  "sampleIntervalMillis": 500,
                  "openAfterBreaches": 5,
                  "coolDownMillis": 0,
                  "halfOpenAdmitShare": 0.25,
                  "closeAfterHealthy": 2
                }""";
        AdmissionSettings settings = parse(json);
        assertEquals(AdmissionMode.MONITOR_ONLY, settings.mode());
        assertEquals(0.8, settings.threshold(Signal.CPU));
        assertNull(settings.threshold(Signal.HEAP), "null: not used");
        assertEquals(0.9, settings.threshold(Signal.DIRECT_MEMORY), "absent: default");
        assertEquals(150.5, settings.threshold(Signal.EVENT_LOOP_LAG));
        assertEquals(0.0, settings.threshold(Signal.UPSTREAM_CONNECT_FAILURES));
        assertEquals(
                new AdmissionSettings(AdmissionMode.MONITOR_ONLY, settings.thresholds(), 500, 5, 0, 0.25, 2), settings);

        byte[] written = AdmissionJson.write(settings);
        assertEquals(settings, AdmissionJson.parseSettings(written));
        String text = new String(written, StandardCharsets.UTF_8);
        assertTrue(text.contains("\"heap\" : null"), text);
        assertTrue(text.contains("\"upstream_latency_p99\" : 1000,"), text);
    }

    @Test
    void aDocumentChangesOnlyWhatItNames() {
        AdmissionSettings base =
                parse("{\"mode\": \"enforced\", \"thresholds\": {\"cpu\": 0.7}, \"coolDownMillis\": 30000}");
        AdmissionSettings changed = AdmissionJson.parseSettings(
                bytes("{\"thresholds\": {\"heap\": 0.95}, \"openAfterBreaches\": 1}"), base);
        assertEquals(AdmissionMode.ENFORCED, changed.mode());
        assertEquals(0.7, changed.threshold(Signal.CPU));
        assertEquals(0.95, changed.threshold(Signal.HEAP));
        assertEquals(30_000, changed.coolDownMillis());
        assertEquals(1, changed.openAfterBreaches());

        AdmissionSettings reset =
                AdmissionJson.parseSettings(bytes("{\"coolDownMillis\": null, \"thresholds\": null}"), changed);
        assertEquals(10_000, reset.coolDownMillis());
        assertEquals(AdmissionSettings.DEFAULTS.thresholds(), reset.thresholds());
        assertEquals(AdmissionMode.ENFORCED, reset.mode());
    }

    @Test
    void readsAParsedTreeSuchAsAConfigFileSection() throws Exception {
        ObjectMapper mapper = JsonMapper.builder().build();
        AdmissionSettings settings = AdmissionJson.parseSettings(
                mapper.readTree("{\"admission\": {\"mode\": \"enforced\"}}").get("admission"),
                AdmissionSettings.DEFAULTS);
        assertEquals(AdmissionSettings.DEFAULTS.withMode(AdmissionMode.ENFORCED), settings);
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', textBlock = """
            {"mode": "on"}                                   | mode: must be one of "disabled", "monitor_only", "enforced", got "on"
            {"mode": 1}                                      | mode: must be one of "disabled", "monitor_only", "enforced", got 1
            {"thresholds": {"cpu": 1.5}}                     | thresholds.cpu: must be greater than 0 and at most 1, got 1.5
            {"thresholds": {"heap": 0}}                      | thresholds.heap: must be greater than 0 and at most 1, got 0
            {"thresholds": {"upstream_latency_p99": -1}}     | thresholds.upstream_latency_p99: must be greater than 0 and at most 3600000 (ms), got -1
            {"thresholds": {"upstream_connect_failures": -2}} | thresholds.upstream_connect_failures: must be at least 0 and at most 1e9, got -2
            {"thresholds": {"event_loop_lag": "200"}}        | thresholds.event_loop_lag: must be a number, got "200"
            {"thresholds": {"latency": 5}}                   | thresholds.latency: unknown signal; known signals are cpu, heap, direct_memory, event_loop_lag, upstream_latency_p99, upstream_connect_failures
            {"thresholds": [1]}                              | thresholds: must be an object of signal to threshold, got an array
            {"sampleIntervalMillis": 5}                      | sampleIntervalMillis: must be at least 100 and at most 60000, got 5
            {"sampleIntervalMillis": 1000.5}                 | sampleIntervalMillis: must be an integer, got 1000.5
            {"sampleIntervalMillis": 99999999999999999999}   | sampleIntervalMillis: must be a 64-bit integer, got 99999999999999999999
            {"openAfterBreaches": 0}                         | openAfterBreaches: must be at least 1 and at most 1000, got 0
            {"openAfterBreaches": 5000000000}                | openAfterBreaches: must be at least 1 and at most 1000, got 5000000000
            {"coolDownMillis": -1}                           | coolDownMillis: must be at least 0 and at most 3600000, got -1
            {"halfOpenAdmitShare": 1.5}                      | halfOpenAdmitShare: must be at least 0 and at most 1, got 1.5
            {"halfOpenAdmitShare": true}                     | halfOpenAdmitShare: must be a number, got true
            {"closeAfterHealthy": 1001}                      | closeAfterHealthy: must be at least 1 and at most 1000, got 1001
            {"closeAfterHealty": 3}                          | closeAfterHealty: unknown field; known fields are closeAfterHealthy, coolDownMillis, halfOpenAdmitShare, mode, openAfterBreaches, sampleIntervalMillis, thresholds
            [1]                                              | must be a JSON object, got an array
            null                                             | must be a JSON object, got null
            """)
    void invalidSettingsNameTheField(String json, String message) {
        assertEquals(
                message,
                assertThrows(InvalidSettingsException.class, () -> parse(json)).getMessage());
    }

    @Test
    void malformedJsonIsReportedWithItsPlace() {
        String duplicate = assertThrows(
                        InvalidSettingsException.class, () -> parse("{\"mode\": \"enforced\", \"mode\": \"disabled\"}"))
                .getMessage();
        assertTrue(duplicate.startsWith("malformed JSON at line 1, column "), duplicate);
        String trailing = assertThrows(InvalidSettingsException.class, () -> parse("{} {}"))
                .getMessage();
        assertTrue(trailing.startsWith("malformed JSON"), trailing);
        String empty =
                assertThrows(InvalidSettingsException.class, () -> parse("")).getMessage();
        assertEquals("must be a JSON object, got nothing", empty);
    }

    @Test
    void theJavaConstructorValidatesToo() {
        InvalidSettingsException e = assertThrows(
                InvalidSettingsException.class, () -> AdmissionSettings.DEFAULTS.withThreshold(Signal.CPU, 2.0));
        assertEquals("thresholds.cpu", e.path());
        assertEquals("must be greater than 0 and at most 1, got 2", e.problem());
        assertEquals(
                "mode",
                assertThrows(InvalidSettingsException.class, () -> AdmissionSettings.DEFAULTS.withMode(null))
                        .path());
        assertEquals(
                "halfOpenAdmitShare",
                assertThrows(
                                InvalidSettingsException.class,
                                () -> new AdmissionSettings(
                                        AdmissionMode.ENFORCED, Map.of(), 1000, 3, 0, Double.NaN, 3))
                        .path());

        // A null threshold in a map means the same as no entry; the map is copied and frozen.
        Map<Signal, Double> thresholds = new HashMap<>();
        thresholds.put(Signal.CPU, null);
        thresholds.put(Signal.HEAP, 0.5);
        AdmissionSettings settings = new AdmissionSettings(AdmissionMode.ENFORCED, thresholds, 1000, 3, 0, 0.1, 3);
        thresholds.put(Signal.HEAP, 0.6);
        assertEquals(new EnumMap<>(Map.of(Signal.HEAP, 0.5)), settings.thresholds());
        assertThrows(
                UnsupportedOperationException.class, () -> settings.thresholds().put(Signal.CPU, 0.5));
    }

    @Test
    void jsonNamesAreTheIssues() {
        assertEquals("monitor_only", AdmissionMode.MONITOR_ONLY.jsonName());
        assertEquals("upstream_latency_p99", Signal.UPSTREAM_LATENCY_P99.jsonName());
    }
}
