package io.sluice.server.logging;

import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class LogLevelsTest {

    @Test
    void aBareLevelIsEveryLoggersAndNamedLoggersHaveTheirOwn() {
        LogLevels levels = LogLevels.parse(" WARN , io.sluice.relay=debug,io.netty=error ");
        assertEquals("warn", levels.root());
        assertEquals(Map.of("io.sluice.relay", "debug", "io.netty", "error"), levels.loggers());
        assertEquals("info", LogLevels.DEFAULTS.root());
        assertEquals(Map.of("io.netty", "warn"), LogLevels.DEFAULTS.loggers());
    }

    @Test
    void anythingElseIsRefusedNamingTheItem() {
        IllegalArgumentException level = assertThrows(IllegalArgumentException.class, () -> LogLevels.parse("loud"));
        assertTrue(level.getMessage().contains("'loud'"), level.getMessage());
        IllegalArgumentException logger =
                assertThrows(IllegalArgumentException.class, () -> LogLevels.parse("io..netty=warn"));
        assertTrue(logger.getMessage().contains("'io..netty=warn'"), logger.getMessage());
        assertThrows(IllegalArgumentException.class, () -> LogFormat.parse("xml"));
        assertEquals(LogFormat.JSON, LogFormat.parse(" JSON"));
    }
}
