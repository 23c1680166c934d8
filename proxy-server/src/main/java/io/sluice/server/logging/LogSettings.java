package io.sluice.server.logging;

import java.util.Objects;

/**
 * How Sluice logs (docs/REFERENCE.md, "Logging").
 *
 * @param format {@code --log-format}
 * @param levels {@code --log-levels}
 */
public record LogSettings(LogFormat format, LogLevels levels) {

    /** Text, at {@link LogLevels#DEFAULTS}. */
    public static final LogSettings DEFAULTS = new LogSettings(LogFormat.TEXT, LogLevels.DEFAULTS);

    public LogSettings {
        Objects.requireNonNull(format, "format");
        Objects.requireNonNull(levels, "levels");
    }
}
