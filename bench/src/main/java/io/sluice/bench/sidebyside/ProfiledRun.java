package io.sluice.bench.sidebyside;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.Callable;

/**
 * A run of a workload with a proxy's process profiled ({@code -Dbench.profile=true}), usually an
 * extra, unmeasured one:
 * CPU and allocation flame graphs to {@code profiles/} beside {@code results.md}, and to the report
 * where the process's CPU went by category, its hottest frames, what it allocated per message, and
 * its collections and compilations. The figures of measured rounds never include a profiled run,
 * except in the accuracy scenario, whose first flood on a fresh Sluice cannot be run twice.
 */
final class ProfiledRun {

    /** What a profiled run delivered: messages (records) acknowledged, and their rate. */
    interface Outcome {
        long completed();

        double messagesPerSecond();
    }

    private ProfiledRun() {}

    /**
     * Runs {@code body} with {@code contender}'s process profiled and reports what the profile shows.
     *
     * @param name    what was run, for headings and file names
     * @param workDir where the recordings go (they stay there for {@code jfr print} and the like)
     */
    static <R extends Outcome> R profile(
            Contender contender, String name, BenchSettings settings, Path workDir, Report report, Callable<R> body)
            throws Exception {
        Path profiles = Files.createDirectories(settings.outputDir().resolve("profiles"));
        String file = PassthroughScenario.slug(contender.name() + " " + name);
        Path samples = Files.createTempFile(workDir, file + "-samples-", ".jfr");
        Path flightRecording = Files.createTempFile(workDir, file + "-jvm-", ".jfr");
        double load = LoadAverage.oneMinuteNow();
        ProcessCost before = ProcessCost.of(contender.proxyPid());
        ProcessProfiler profiler = ProcessProfiler.start(contender.proxyPid(), workDir, samples);
        SyscallCounter syscalls = SyscallCounter.start(contender.proxyPid(), workDir);
        R result;
        Map<String, Long> syscallCounts;
        try {
            result = body.call();
        } finally {
            syscallCounts = syscalls.stop();
            profiler.stop(file, profiles, flightRecording);
        }
        ProcessCost after = ProcessCost.of(contender.proxyPid());
        JvmActivity jvm = JvmActivity.read(flightRecording, profiler.begin(), profiler.end());
        CpuBreakdown cpu = CpuBreakdown.of(profiler.collapsedCpu());
        long allocated = profiler.allocatedBytes();
        double messages = result.completed();
        report.heading("Profile: " + contender.name() + ", " + name);
        report.text(String.format(
                "Profiled run: %.0f msg/s, %d messages; "
                        + "load average before it %.2f, the machine's CPU %.0f %% busy during it (all processes, "
                        + "of %d cores), the proxy's JVM %.0f %% of the machine. Proxy CPU %.2f s per million "
                        + "messages; allocated %.0f B per message; %d collections pausing %.1f ms in all (longest "
                        + "%.1f ms); %d JIT compilations taking %.0f ms. Flame graphs: [CPU](bench/profiles/%s-cpu.html), "
                        + "[allocation](bench/profiles/%s-alloc.html); recordings: `%s`.",
                result.messagesPerSecond(),
                result.completed(),
                load,
                100 * jvm.machineCpuShare(),
                Runtime.getRuntime().availableProcessors(),
                100 * jvm.jvmCpuShare(),
                after.cpuSecondsSince(before) / messages * 1e6,
                allocated / messages,
                jvm.collections(),
                jvm.pauseMillis(),
                jvm.longestPauseMillis(),
                jvm.compilations(),
                jvm.compileMillis(),
                file,
                file,
                samples + "` and `" + flightRecording));
        if (!syscallCounts.isEmpty()) {
            MarkdownTable perMessage = new MarkdownTable("system call (perf stat)", "per message", "in all");
            syscallCounts.forEach((call, count) -> {
                perMessage.row(call, MarkdownTable.num(count / messages, 3), count);
                report.figures()
                        .add(
                                "profile",
                                name,
                                contender.name(),
                                call + " per message",
                                count / messages,
                                false,
                                false,
                                0.05);
            });
            report.table(perMessage);
        }
        report.table(cpu.table());
        report.table(cpu.topFramesTable());
        report.figures()
                .add(
                        "profile",
                        name,
                        contender.name(),
                        "allocated B per message",
                        allocated / messages,
                        false,
                        false,
                        16);
        // The categories that matter; the long tail of one-sample categories would only differ between runs.
        cpu.categories().forEach((category, count) -> {
            if (count >= cpu.samples() / 100) {
                report.figures()
                        .add(
                                "profile",
                                name,
                                contender.name(),
                                "CPU share % " + category,
                                100.0 * count / cpu.samples(),
                                false,
                                false,
                                3);
            }
        });
        return result;
    }
}
