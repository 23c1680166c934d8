package io.sluice.server.logging;

import java.util.Locale;

/** How each log line is written ({@code --log-format}). */
public enum LogFormat {
    /** {@code 2026-12-04T23:31:33.933+0000 WARN HandshakeDeadline - Closing ...}: for people. */
    TEXT,
    /** One JSON object a line with time, level, logger, thread, message and fields: for collectors. */
    JSON;

    /** {@code text} or {@code json}, in any case. */
    public static LogFormat parse(String text) {
        return switch (text.strip().toLowerCase(Locale.ROOT)) {
            case "text" -> TEXT;
            case "json" -> JSON;
            default -> throw new IllegalArgumentException("expected text or json, got '" + text + "'");
        };
    }
}
