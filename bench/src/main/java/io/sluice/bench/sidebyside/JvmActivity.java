package io.sluice.bench.sidebyside;

import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

/**
 * What a JVM did besides running its code during one JDK Flight Recording: collections and their
 * pauses, JIT compilations, and the machine's CPU load meanwhile (how much the other processes on
 * the machine competed).
 *
 * @param seconds              the recording's length
 * @param collections          garbage collections that ended in the recording
 * @param pauseMillis          their stop-the-world pauses, summed
 * @param longestPauseMillis   the longest of them
 * @param compilations         JIT compilations done in the recording
 * @param compileMillis        time the JIT compilers spent on them
 * @param jvmCpuShare          the JVM's own CPU use, user plus system, as a share of the machine (0 to 1)
 * @param machineCpuShare      all processes' CPU use as a share of the machine (0 to 1)
 */
record JvmActivity(
        double seconds,
        long collections,
        double pauseMillis,
        double longestPauseMillis,
        long compilations,
        double compileMillis,
        double jvmCpuShare,
        double machineCpuShare) {

    /** The events of {@code jfr} from {@code from} to {@code to} (a dump holds whole chunks, often more). */
    static JvmActivity read(Path jfr, Instant from, Instant to) {
        List<RecordedEvent> events;
        try {
            events = RecordingFile.readAllEvents(jfr);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + jfr, e);
        }
        long first = Long.MAX_VALUE;
        long last = Long.MIN_VALUE;
        long collections = 0;
        double pauseMillis = 0;
        double longestPauseMillis = 0;
        RecordedEvent firstCompilerStats = null;
        RecordedEvent lastCompilerStats = null;
        double jvmCpu = 0;
        double machineCpu = 0;
        int cpuReadings = 0;
        for (RecordedEvent event : events) {
            if (event.getStartTime().isBefore(from) || event.getEndTime().isAfter(to)) {
                continue;
            }
            long at = event.getStartTime().toEpochMilli();
            first = Math.min(first, at);
            last = Math.max(last, event.getEndTime().toEpochMilli());
            switch (event.getEventType().getName()) {
                case "jdk.GarbageCollection" -> {
                    collections++;
                    pauseMillis += millis(event.getDuration("sumOfPauses"));
                    longestPauseMillis = Math.max(longestPauseMillis, millis(event.getDuration("longestPause")));
                }
                case "jdk.CompilerStatistics" -> {
                    if (firstCompilerStats == null
                            || event.getStartTime().isBefore(firstCompilerStats.getStartTime())) {
                        firstCompilerStats = event;
                    }
                    if (lastCompilerStats == null || event.getStartTime().isAfter(lastCompilerStats.getStartTime())) {
                        lastCompilerStats = event;
                    }
                }
                case "jdk.CPULoad" -> {
                    jvmCpu += event.getFloat("jvmUser") + event.getFloat("jvmSystem");
                    machineCpu += event.getFloat("machineTotal");
                    cpuReadings++;
                }
                default -> {}
            }
        }
        long compilations = 0;
        double compileMillis = 0;
        if (firstCompilerStats != null) {
            compilations = lastCompilerStats.getLong("compileCount") - firstCompilerStats.getLong("compileCount");
            compileMillis = millis(lastCompilerStats.getDuration("totalTimeSpent"))
                    - millis(firstCompilerStats.getDuration("totalTimeSpent"));
        }
        return new JvmActivity(
                first == Long.MAX_VALUE ? 0 : (last - first) / 1e3,
                collections,
                pauseMillis,
                longestPauseMillis,
                compilations,
                compileMillis,
                cpuReadings == 0 ? Double.NaN : jvmCpu / cpuReadings,
                cpuReadings == 0 ? Double.NaN : machineCpu / cpuReadings);
    }

    private static double millis(Duration duration) {
        return duration == null ? 0 : duration.toNanos() / 1e6;
    }
}
