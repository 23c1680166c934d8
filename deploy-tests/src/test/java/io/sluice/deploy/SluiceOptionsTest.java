package io.sluice.deploy;

import org.junit.jupiter.api.Test;

import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The option reader that the Dockerfile and chart checks rely on finds what docs/REFERENCE.md, "Command line" documents. */
class SluiceOptionsTest {

    @Test
    void readsEveryDocumentedOptionFromSluiceCommand() {
        SluiceOptions options = SluiceOptions.load();
        Set<String> documented = Set.of(
                "SLUICE_UPSTREAM",
                "SLUICE_LISTEN",
                "SLUICE_ADMIN",
                "SLUICE_LIMITS_FILE",
                "SLUICE_ADMIN_TOKEN",
                "SLUICE_ALLOWED_BROKERS",
                "SLUICE_CONFIG",
                "SLUICE_LOOKUP_MODE",
                "SLUICE_METRICS_MAX_TOPICS",
                "SLUICE_DRAIN_TIMEOUT",
                "SLUICE_HANDSHAKE_TIMEOUT",
                "SLUICE_ADMIN_IDLE_TIMEOUT");
        assertTrue(options.envNames().containsAll(documented), "found " + options.envNames());
        assertEquals("0.0.0.0:6650", options.defaultValue("--listen"));
        assertEquals("0.0.0.0:8080", options.defaultValue("--admin"));
        assertEquals("10", options.defaultValue("--drain-timeout"));
        assertEquals("30", options.defaultValue("--handshake-timeout"));
        assertEquals("30", options.defaultValue("--admin-idle-timeout"));
        assertNull(options.defaultValue("--upstream"));
    }

    @Test
    void parsesNameArraysDefaultsAndParenthesesInDescriptions() {
        String source = """
                @Option(names = {"-l", "--listen-address"}, defaultValue = "0.0.0.0:1",
                        description = "where (host:port) to listen; see \\"docs\\" (default: ${DEFAULT-VALUE}).")
                String listen;
                @Option(names = "--x-y", description = "no default (really)")
                String xy;
                """;
        SluiceOptions options = SluiceOptions.parse(source);
        assertEquals(Set.of("--listen-address", "--x-y"), options.longNames());
        assertEquals("0.0.0.0:1", options.defaultValue("--listen-address"));
        assertNull(options.defaultValue("--x-y"));
        assertEquals(Set.of("SLUICE_LISTEN_ADDRESS", "SLUICE_X_Y"), options.envNames());
    }

    @Test
    void readsFrontEndOptionsWithConstantNamesAndLeavesOutHelpAndVersion() {
        String source = """
                private static final String UPSTREAM = "--line-upstream";
                List.of(
                        FrontEndOption.text(400, UPSTREAM, "HOST:PORT", null, "Upstream, a, b (really)."),
                        FrontEndOption.text(410, "--line-listen", "HOST:PORT", "0.0.0.0:7000", "Port" + " (x, y)."),
                        FrontEndOption.flag(420, "--line-tls", "TLS (default: ${DEFAULT-VALUE})."));
                """;
        SluiceOptions options = SluiceOptions.parseFrontEndOptions(source);
        assertEquals(Set.of("--line-upstream", "--line-listen", "--line-tls"), options.longNames());
        assertNull(options.defaultValue("--line-upstream"));
        assertEquals("0.0.0.0:7000", options.defaultValue("--line-listen"));
        assertEquals("false", options.defaultValue("--line-tls"));
        SluiceOptions command = SluiceOptions.parse(
                "@Option(names = {\"-h\", \"--help\"}, usageHelp = true, description = \"Help.\")\nboolean help;");
        assertEquals(Set.of(), command.longNames());
    }
}
