package io.sluice.server.logging;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Which events are logged ({@code --log-levels}): a level for every logger, and levels for loggers
 * by name (a package's applies to the classes under it), e.g.
 * {@code info,io.netty=warn,io.sluice.relay=debug}.
 *
 * @param root    the level of loggers not named
 * @param loggers levels by logger name, in the order given
 */
public record LogLevels(String root, Map<String, String> loggers) {

    private static final Set<String> LEVELS = Set.of("trace", "debug", "info", "warn", "error", "off");
    private static final Pattern LOGGER = Pattern.compile("[A-Za-z_$][\\w$]*(\\.[A-Za-z_$][\\w$]*)*");

    /** {@code info}, Netty's own at {@code warn}. */
    public static final LogLevels DEFAULTS = parse("info,io.netty=warn");

    public LogLevels {
        loggers = Map.copyOf(loggers);
    }

    /**
     * {@code LEVEL} and {@code LOGGER=LEVEL} items separated by commas; a bare level is the root's.
     *
     * @throws IllegalArgumentException naming the item that is not one
     */
    public static LogLevels parse(String text) {
        String root = "info";
        Map<String, String> loggers = new LinkedHashMap<>();
        for (String item : text.split(",")) {
            String entry = item.strip();
            if (entry.isEmpty()) {
                continue;
            }
            int equals = entry.indexOf('=');
            String level = level(equals < 0 ? entry : entry.substring(equals + 1), entry);
            if (equals < 0) {
                root = level;
            } else {
                String logger = entry.substring(0, equals).strip();
                if (!LOGGER.matcher(logger).matches()) {
                    throw new IllegalArgumentException("expected LOGGER=LEVEL, got '" + entry + "'");
                }
                loggers.put(logger, level);
            }
        }
        return new LogLevels(root, loggers);
    }

    private static String level(String text, String entry) {
        String level = text.strip().toLowerCase(Locale.ROOT);
        if (!LEVELS.contains(level)) {
            throw new IllegalArgumentException(
                    "expected a level of trace, debug, info, warn, error or off in '" + entry + "'");
        }
        return level;
    }
}
