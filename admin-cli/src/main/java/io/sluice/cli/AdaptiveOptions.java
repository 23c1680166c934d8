package io.sluice.cli;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * How the CLI reads an adaptive limit's options: a latency with its unit ({@code 20ms},
 * {@code 0.5s}; a bare number is milliseconds) and a fraction as a percentage or a number
 * ({@code 5%}, {@code 0.05}). The server checks the ranges and names the field it refuses.
 */
final class AdaptiveOptions {

    private static final Pattern LATENCY = Pattern.compile("(\\d+(?:\\.\\d+)?)\\s*(ms|s)?");
    private static final Pattern FRACTION = Pattern.compile("(\\d+(?:\\.\\d+)?)\\s*(%)?");

    private AdaptiveOptions() {}

    /** {@code --adaptive-target}: milliseconds. */
    static double latencyMillis(String text) {
        Matcher m = LATENCY.matcher(text.trim());
        if (!m.matches()) {
            throw CliFailure.usage(
                    "invalid --adaptive-target '" + text + "': a latency such as 20ms or 0.5s, or 'off'");
        }
        double value = Double.parseDouble(m.group(1));
        return "s".equals(m.group(2)) ? value * 1000 : value;
    }

    /** {@code --adaptive-floor}: a part of one. */
    static double fraction(String text) {
        Matcher m = FRACTION.matcher(text.trim());
        if (!m.matches()) {
            throw CliFailure.usage("invalid --adaptive-floor '" + text + "': a share such as 5% or 0.05");
        }
        double value = Double.parseDouble(m.group(1));
        return m.group(2) != null ? value / 100 : value;
    }
}
