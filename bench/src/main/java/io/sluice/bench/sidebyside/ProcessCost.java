package io.sluice.bench.sidebyside;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

/**
 * What a process has cost so far, read from Linux's {@code /proc}: CPU time (user plus system,
 * all threads), and resident memory and open files now.
 *
 * @param cpuSeconds {@code utime + stime} of {@code /proc/PID/stat}, in seconds
 * @param rssBytes   {@code VmRSS} of {@code /proc/PID/status}
 * @param openFiles  entries of {@code /proc/PID/fd}: sockets, jars, logs
 */
record ProcessCost(double cpuSeconds, long rssBytes, long openFiles) {

    /** USER_HZ; 100 on every Linux this runs on (sysconf(_SC_CLK_TCK) is not reachable from Java). */
    private static final double CLOCK_TICKS_PER_SECOND = 100.0;

    static ProcessCost of(long pid) {
        try {
            String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
            // The command name (field 2) may hold spaces; the fields after its ')' are fixed.
            String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
            long ticks = Long.parseLong(fields[11]) + Long.parseLong(fields[12]); // utime, stime
            long rssKib = 0;
            for (String line : Files.readAllLines(Path.of("/proc", Long.toString(pid), "status"))) {
                if (line.startsWith("VmRSS:")) {
                    rssKib = Long.parseLong(line.replaceAll("[^0-9]", ""));
                }
            }
            long openFiles;
            try (Stream<Path> fds = Files.list(Path.of("/proc", Long.toString(pid), "fd"))) {
                openFiles = fds.count();
            }
            return new ProcessCost(ticks / CLOCK_TICKS_PER_SECOND, rssKib * 1024, openFiles);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read /proc for pid " + pid, e);
        }
    }

    /** CPU seconds spent since {@code earlier}. */
    double cpuSecondsSince(ProcessCost earlier) {
        return cpuSeconds - earlier.cpuSeconds;
    }
}
