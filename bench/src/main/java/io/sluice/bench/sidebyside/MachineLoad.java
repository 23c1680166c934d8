package io.sluice.bench.sidebyside;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * How busy the whole machine was over a stretch of time, from Linux's {@code /proc/stat}, and how
 * much of that the suite's own processes (this JVM, the broker, the proxies) account for; the rest
 * is other work on a shared machine, which the figures measured meanwhile must be read against.
 *
 * @param busyCores   CPU cores busy on average (user, nice, system, irq, softirq, steal)
 * @param cores       cores in the machine
 * @param suiteCores  of {@code busyCores}, the cores the suite's processes used
 * @param loadAverage the 1-minute load average at the end
 */
record MachineLoad(double busyCores, int cores, double suiteCores, double loadAverage) {

    /** Readings at the start of a stretch; {@link #since} turns them into a load. */
    record Mark(long busyTicks, long totalTicks, double suiteCpuSeconds, long nanos, List<Long> pids) {}

    static Mark mark(List<Long> suitePids) {
        long[] ticks = cpuTicks();
        return new Mark(ticks[0], ticks[1], suiteCpuSeconds(suitePids), System.nanoTime(), List.copyOf(suitePids));
    }

    static MachineLoad since(Mark start) {
        long[] ticks = cpuTicks();
        int cores = Runtime.getRuntime().availableProcessors();
        double seconds = (System.nanoTime() - start.nanos()) / 1e9;
        double busyShare = (double) (ticks[0] - start.busyTicks()) / Math.max(1, ticks[1] - start.totalTicks());
        double suite = (suiteCpuSeconds(start.pids()) - start.suiteCpuSeconds()) / seconds;
        return new MachineLoad(busyShare * cores, cores, suite, LoadAverage.oneMinuteNow());
    }

    /** Busy cores no process of the suite accounts for. */
    double otherCores() {
        return Math.max(0, busyCores - suiteCores);
    }

    /** Busy and total jiffies over all cores: the first line of /proc/stat. */
    private static long[] cpuTicks() {
        try {
            String[] fields =
                    Files.readAllLines(Path.of("/proc/stat")).get(0).trim().split("\\s+");
            long user = Long.parseLong(fields[1]);
            long nice = Long.parseLong(fields[2]);
            long system = Long.parseLong(fields[3]);
            long idle = Long.parseLong(fields[4]);
            long iowait = Long.parseLong(fields[5]);
            long irq = Long.parseLong(fields[6]);
            long softirq = Long.parseLong(fields[7]);
            long steal = fields.length > 8 ? Long.parseLong(fields[8]) : 0;
            long busy = user + nice + system + irq + softirq + steal;
            return new long[] {busy, busy + idle + iowait};
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read /proc/stat", e);
        }
    }

    private static double suiteCpuSeconds(List<Long> pids) {
        double seconds = 0;
        for (long pid : pids) {
            seconds += ProcessCost.of(pid).cpuSeconds();
        }
        return seconds;
    }
}
