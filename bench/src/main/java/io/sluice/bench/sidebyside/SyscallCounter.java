package io.sluice.bench.sidebyside;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Counts a process's system calls of a few kinds and its context switches over a window, with
 * Linux's {@code perf stat} on the kernel's syscall tracepoints (counting only: no sampling, no
 * ptrace, so the process runs at its usual speed). Per forwarded message these counts show how
 * much of a proxy's work is batched: one {@code writev} per message or one per read of many.
 *
 * <p>Where {@code perf} is missing or the tracepoints are not readable, {@link #start} returns a
 * counter that reports nothing.
 */
final class SyscallCounter {

    /** What is counted: writes, reads, event-loop waits, timer arming, and context switches. */
    static final List<String> EVENTS = List.of(
            "syscalls:sys_enter_writev",
            "syscalls:sys_enter_write",
            "syscalls:sys_enter_read",
            "syscalls:sys_enter_epoll_wait",
            "syscalls:sys_enter_epoll_pwait",
            "syscalls:sys_enter_epoll_pwait2",
            "syscalls:sys_enter_timerfd_settime",
            "syscalls:sys_enter_futex",
            "context-switches");

    private final Process perf;
    private final Path output;

    private SyscallCounter(Process perf, Path output) {
        this.perf = perf;
        this.output = output;
    }

    /** Starts counting for process {@code pid}. */
    static SyscallCounter start(long pid, Path workDir) {
        try {
            Path output = Files.createTempFile(workDir, "perf-stat-", ".csv");
            Process perf = new ProcessBuilder(
                            "perf",
                            "stat",
                            "-x",
                            ",",
                            "-o",
                            output.toString(),
                            "-e",
                            String.join(",", EVENTS),
                            "-p",
                            Long.toString(pid))
                    .redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                    .start();
            return new SyscallCounter(perf, output);
        } catch (IOException noPerf) {
            return new SyscallCounter(null, null);
        }
    }

    /**
     * Stops counting; returns the counts by event name without its {@code syscalls:sys_enter_}
     * prefix, empty when nothing could be counted.
     */
    Map<String, Long> stop() {
        Map<String, Long> counts = new LinkedHashMap<>();
        if (perf == null) {
            return counts;
        }
        try {
            // perf stat prints its counts when interrupted.
            new ProcessBuilder("kill", "-INT", Long.toString(perf.pid()))
                    .start()
                    .waitFor(10, TimeUnit.SECONDS);
            if (!perf.waitFor(10, TimeUnit.SECONDS)) {
                perf.destroyForcibly();
                return counts;
            }
            for (String line : Files.readAllLines(output, StandardCharsets.UTF_8)) {
                String[] fields = line.split(",");
                if (fields.length > 2 && !fields[0].isBlank() && Character.isDigit(fields[0].charAt(0))) {
                    counts.put(fields[2].replace("syscalls:sys_enter_", ""), Long.parseLong(fields[0]));
                }
            }
            return counts;
        } catch (IOException | NumberFormatException e) {
            return counts;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return counts;
        }
    }
}
