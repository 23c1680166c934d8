package io.sluice.admission;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.json.JsonMapper;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class AdmissionStatusJsonTest {

    @Test
    void statusJsonHasBreakersSignalsSettingsAndTransitions() throws Exception {
        FakeClock clock = new FakeClock();
        SettableSignal latency = new SettableSignal();
        AdmissionController controller = new AdmissionController(
                AdmissionSettings.DEFAULTS.withMode(AdmissionMode.ENFORCED),
                Map.of(Signal.UPSTREAM_LATENCY_P99, latency),
                clock);
        latency.set(1530.25);
        for (int i = 0; i < 3; i++) {
            controller.sample(clock.advance(Duration.ofSeconds(1)));
        }
        controller.admit(RequestType.NEW_CONSUMER);

        JsonNode root = JsonMapper.builder().build().readTree(AdmissionJson.write(controller.status()));
        assertEquals(clock.instant().toString(), root.get("sampledAt").asText());

        JsonNode subscribe = root.get("breakers").get("NEW_CONSUMER");
        assertEquals("OPEN", subscribe.get("state").asText());
        assertEquals(clock.instant().toString(), subscribe.get("since").asText());
        assertEquals(1, subscribe.get("rejections").asLong());
        assertEquals(0, subscribe.get("wouldBeRejections").asLong());
        assertEquals(
                "Sluice admission control: upstream_latency_p99 1530.3 ms > 1000 ms; retry later",
                subscribe.get("reason").asText());
        assertEquals(4, root.get("breakers").size());

        JsonNode p99 = root.get("signals").get("upstream_latency_p99");
        assertEquals(1530.25, p99.get("value").asDouble());
        assertEquals(1000, p99.get("threshold").asLong());
        assertTrue(p99.get("breached").asBoolean());
        assertTrue(root.get("signals").get("cpu").get("value").isNull(), "unknown values are null, not NaN");
        assertEquals(6, root.get("signals").size());

        assertEquals("enforced", root.get("settings").get("mode").asText());
        assertEquals(
                AdmissionSettings.DEFAULTS.withMode(AdmissionMode.ENFORCED),
                AdmissionJson.parseSettings(root.get("settings"), AdmissionSettings.DEFAULTS),
                "settings can be PUT back");

        JsonNode first = root.get("recentTransitions").get(0);
        assertEquals("NEW_CONNECTION", first.get("type").asText());
        assertEquals("CLOSED", first.get("from").asText());
        assertEquals("OPEN", first.get("to").asText());
        assertEquals("upstream_latency_p99", first.get("signal").asText());
        assertEquals(1530.25, first.get("value").asDouble());
        assertEquals(4, root.get("recentTransitions").size());
    }

    @Test
    void beforeTheFirstSampleTimesAndValuesAreNull() throws Exception {
        AdmissionController controller = new AdmissionController(AdmissionSettings.DEFAULTS, Map.of(), new FakeClock());
        JsonNode root = JsonMapper.builder().build().readTree(AdmissionJson.write(controller.status()));
        assertTrue(root.get("sampledAt").isNull());
        assertTrue(root.get("breakers").get("NEW_CONNECTION").get("reason").isNull());
        assertTrue(root.get("signals").get("heap").get("value").isNull());
        assertEquals(0, root.get("recentTransitions").size());
    }
}
