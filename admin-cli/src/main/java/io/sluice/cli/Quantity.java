package io.sluice.cli;

import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Numbers as operators type and read them: {@code 500}, {@code 5k}, {@code 1.5M}, {@code 10MiB},
 * {@code 64KiB/s}, {@code 2.5e3}. Decimal prefixes (k, M, G, T, and kB, MB...) are powers of
 * 1000, binary ones (Ki, Mi, Gi, Ti, and KiB...) powers of 1024; a trailing {@code /s} is allowed
 * and ignored, so a rate can be written as one.
 */
final class Quantity {

    /** What {@link #parse} answers for {@code unlimited} (or {@code none}): the value is to be removed. */
    static final double UNLIMITED = Double.NaN;

    private static final Pattern FORM =
            Pattern.compile("([0-9]+(?:\\.[0-9]+)?(?:[eE][+-]?[0-9]+)?|\\.[0-9]+)\\s*([A-Za-z]*)");

    private static final Map<String, Double> MULTIPLIERS = Map.ofEntries(
            Map.entry("", 1.0),
            Map.entry("B", 1.0),
            Map.entry("k", 1e3),
            Map.entry("K", 1e3),
            Map.entry("kB", 1e3),
            Map.entry("KB", 1e3),
            Map.entry("M", 1e6),
            Map.entry("MB", 1e6),
            Map.entry("G", 1e9),
            Map.entry("GB", 1e9),
            Map.entry("T", 1e12),
            Map.entry("TB", 1e12),
            Map.entry("Ki", 1024.0),
            Map.entry("KiB", 1024.0),
            Map.entry("Mi", 1024.0 * 1024),
            Map.entry("MiB", 1024.0 * 1024),
            Map.entry("Gi", 1024.0 * 1024 * 1024),
            Map.entry("GiB", 1024.0 * 1024 * 1024),
            Map.entry("Ti", 1024.0 * 1024 * 1024 * 1024),
            Map.entry("TiB", 1024.0 * 1024 * 1024 * 1024));

    private static final String[] COUNT_PREFIXES = {"", "k", "M", "G", "T"};
    private static final String[] BYTE_UNITS = {"B", "KiB", "MiB", "GiB", "TiB"};

    private Quantity() {}

    /**
     * The value of {@code text}, or {@link #UNLIMITED} for {@code unlimited} or {@code none}.
     *
     * @throws IllegalArgumentException saying which forms are accepted
     */
    static double parse(String text) {
        String trimmed = text.strip();
        String lower = trimmed.toLowerCase(Locale.ROOT);
        if (lower.equals("unlimited") || lower.equals("none")) {
            return UNLIMITED;
        }
        if (trimmed.endsWith("/s")) {
            trimmed = trimmed.substring(0, trimmed.length() - 2).strip();
        }
        Matcher matcher = FORM.matcher(trimmed);
        Double multiplier = matcher.matches() ? MULTIPLIERS.get(matcher.group(2)) : null;
        if (multiplier == null) {
            throw new IllegalArgumentException("'" + text + "' is not a quantity: write a number with an optional unit,"
                    + " e.g. 500, 5k, 1.5M, 10MiB, 512KiB/s, or 'unlimited'");
        }
        double value = Double.parseDouble(matcher.group(1)) * multiplier;
        if (Double.isInfinite(value)) {
            throw new IllegalArgumentException("'" + text + "' is too large");
        }
        return value;
    }

    /**
     * A whole number, such as a count of sends.
     *
     * @throws IllegalArgumentException when {@code text} is not a quantity or not a whole number
     */
    static long parseWhole(String text) {
        double value = parse(text);
        if (Double.isNaN(value) || value != Math.rint(value) || value > Long.MAX_VALUE) {
            throw new IllegalArgumentException("'" + text + "' is not a whole number");
        }
        return (long) value;
    }

    /** A count or rate for a table: {@code 12}, {@code 3.5}, {@code 1.2k}, {@code 15M}. */
    static String count(double value) {
        return scaled(value, 1000, COUNT_PREFIXES, "");
    }

    /** Bytes for a table: {@code 512 B}, {@code 1.5 KiB}, {@code 10 MiB}. */
    static String bytes(double value) {
        return scaled(value, 1024, BYTE_UNITS, " ");
    }

    /** {@code value} divided by {@code base} until it shows in three digits, with the unit it reached. */
    private static String scaled(double value, double base, String[] units, String separator) {
        int unit = 0;
        double scaled = value;
        // Scaled up before one decimal would round it to the base: 999.96 is 1k, not 1000.
        while (Math.abs(scaled) >= base - 0.05 && unit < units.length - 1) {
            scaled /= base;
            unit++;
        }
        return short3(scaled) + separator + units[unit];
    }

    /** At most one decimal, and none when it would be {@code .0} or the number has three digits. */
    private static String short3(double value) {
        double rounded = Math.round(value * 10) / 10.0;
        if (rounded == Math.rint(rounded) || Math.abs(rounded) >= 100) {
            return Long.toString(Math.round(value));
        }
        return String.format(Locale.ROOT, "%.1f", rounded);
    }
}
