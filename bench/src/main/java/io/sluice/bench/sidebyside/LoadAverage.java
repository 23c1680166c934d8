package io.sluice.bench.sidebyside;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * The machine's load average, from {@code /proc/loadavg} (the suite's one reader of it): on a
 * machine shared with other work it tells how much a measurement competed for the CPUs.
 *
 * @param oneMinute      the 1-minute load average; NaN where {@code /proc/loadavg} cannot be read
 * @param fiveMinutes    the 5-minute load average
 * @param fifteenMinutes the 15-minute load average
 */
record LoadAverage(double oneMinute, double fiveMinutes, double fifteenMinutes) {

    private static final Path LOADAVG = Path.of("/proc/loadavg");

    /** The load averages now. */
    static LoadAverage now() {
        try {
            String[] fields = Files.readString(LOADAVG).split(" ");
            return new LoadAverage(
                    Double.parseDouble(fields[0]), Double.parseDouble(fields[1]), Double.parseDouble(fields[2]));
        } catch (IOException | RuntimeException e) {
            return new LoadAverage(Double.NaN, Double.NaN, Double.NaN);
        }
    }

    /** The 1-minute load average now. */
    static double oneMinuteNow() {
        return now().oneMinute();
    }

    /** {@code 0.40 to 1.20}: the lowest and highest of some 1-minute load averages. */
    static String range(double[] values) {
        double min = Arrays.stream(values).min().orElse(Double.NaN);
        double max = Arrays.stream(values).max().orElse(Double.NaN);
        return MarkdownTable.num(min, 2) + " to " + MarkdownTable.num(max, 2);
    }

    /** {@code 0.42 0.30 0.25}, as {@code uptime} prints them; "unknown" where they cannot be read. */
    @Override
    public String toString() {
        if (Double.isNaN(oneMinute)) {
            return "unknown";
        }
        return MarkdownTable.num(oneMinute, 2) + " " + MarkdownTable.num(fiveMinutes, 2) + " "
                + MarkdownTable.num(fifteenMinutes, 2);
    }
}
