package io.sluice.server.logging;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.LoggingEvent;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class JsonLineEncoderTest {

    private final LoggerContext context = new LoggerContext();
    private final JsonLineEncoder encoder = new JsonLineEncoder();
    private final ObjectMapper json = new ObjectMapper();

    JsonLineEncoderTest() {
        encoder.setContext(context);
        encoder.start();
    }

    @Test
    void anEventIsOneObjectOnOneLineWhateverItsMessageHolds() throws Exception {
        LoggingEvent event =
                event("io.sluice.relay.Something", Level.WARN, "quote \" back \\ new\nline \u001b[31m \u2028");
        event.addKeyValuePair(new org.slf4j.event.KeyValuePair("reason", "frame_timeout"));
        event.setThrowableProxy(new ch.qos.logback.classic.spi.ThrowableProxy(new IllegalStateException("boom")));

        String line = new String(encoder.encode(event), StandardCharsets.UTF_8);

        assertTrue(line.endsWith("}\n"), line);
        assertEquals(1, line.lines().count(), line);
        JsonNode parsed = json.readTree(line);
        assertEquals("WARN", parsed.get("level").asText());
        assertEquals("io.sluice.relay.Something", parsed.get("logger").asText());
        assertEquals(
                "quote \" back \\ new\nline \u001b[31m \u2028",
                parsed.get("message").asText());
        assertEquals("frame_timeout", parsed.get("fields").get("reason").asText());
        assertTrue(parsed.get("error").asText().contains("IllegalStateException: boom"));
        assertTrue(parsed.get("time").asText().endsWith("Z"));
        assertFalse(line.contains("\u2028"), "a line separator inside a line");
    }

    @Test
    void anAuditEntryIsAnObjectOfTheLineNotAString() throws Exception {
        String entry = "{\"time\":\"2026-12-04T00:00:00Z\",\"token\":\"admin\",\"method\":\"PUT\"}";
        JsonNode parsed = json.readTree(encoder.encode(event("io.sluice.audit", Level.INFO, entry)));
        assertEquals("audit", parsed.get("message").asText());
        assertEquals("PUT", parsed.get("audit").get("method").asText());
    }

    private LoggingEvent event(String loggerName, Level level, String message) {
        Logger logger = context.getLogger(loggerName);
        return new LoggingEvent(Logger.class.getName(), logger, level, message, null, null);
    }
}
