package io.sluice.bench.sidebyside;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The machine's load average, from {@code /proc/loadavg}: on a machine shared with other work it
 * tells how much a measurement competed for the CPUs.
 */
final class LoadAverage {

    private LoadAverage() {}

    /** The 1-minute load average; NaN where {@code /proc/loadavg} cannot be read. */
    static double oneMinute() {
        try {
            return Double.parseDouble(Files.readString(Path.of("/proc/loadavg")).split(" ")[0]);
        } catch (IOException | RuntimeException e) {
            return Double.NaN;
        }
    }
}
