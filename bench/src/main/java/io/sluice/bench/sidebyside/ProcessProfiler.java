package io.sluice.bench.sidebyside;

import com.sun.tools.attach.VirtualMachine;
import one.convert.Arguments;
import one.convert.JfrToFlame;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Locale;

/**
 * async-profiler (the native library shipped in {@code tools.profiler:async-profiler}) in a proxy's
 * JVM, profiling one window of load: CPU samples with kernel stacks and allocation samples into
 * one file, and the JDK Flight Recording the JVM keeps running (GC, compilation, CPU load) cut to
 * the same window. {@link #stop} writes CPU and allocation flame graphs (HTML).
 *
 * <p>The JVM starts with the agent loaded and a continuous flight recording ({@link #jvmOptions}):
 * started only for the window, the recording's own code would be compiled in it and the profile
 * would show the profiler. A window is started and stopped through the JDK's attach API, the way
 * async-profiler's own launcher does.
 */
final class ProcessProfiler {

    /** One CPU sample per millisecond of CPU time, one allocation sample per 256 KiB allocated. */
    private static final String EVENTS = "event=cpu,interval=1ms,alloc=256k";
    /** The name of the continuous flight recording. */
    private static final String RECORDING = "bench";

    private final long pid;
    private final Path library;
    private final Path samples;
    private final Instant begin;
    private Instant end;

    private ProcessProfiler(long pid, Path library, Path samples, Instant begin) {
        this.pid = pid;
        this.library = library;
        this.samples = samples;
        this.begin = begin;
    }

    /**
     * JVM options for a process to profile: the agent (loaded, not yet sampling), a continuous
     * flight recording with the JDK's default settings, and exact inlined frames. Given to both
     * proxies alike.
     *
     * @param workDir where the native library is unpacked
     */
    static List<String> jvmOptions(Path workDir) {
        return List.of(
                "-agentpath:" + unpackLibrary(workDir),
                "-XX:StartFlightRecording=name=" + RECORDING + ",settings=default,maxage=1h",
                "-XX:+UnlockDiagnosticVMOptions",
                "-XX:+DebugNonSafepoints");
    }

    /**
     * Starts sampling process {@code pid}, which runs with {@link #jvmOptions}; the samples go to
     * {@code samples} (a JFR file).
     */
    static ProcessProfiler start(long pid, Path workDir, Path samples) {
        ProcessProfiler profiler = new ProcessProfiler(pid, unpackLibrary(workDir), samples, Instant.now());
        profiler.command("start," + EVENTS + ",file=" + samples);
        return profiler;
    }

    /**
     * Stops sampling, writes {@code <name>-cpu.html} and {@code <name>-alloc.html} to {@code outputDir},
     * and cuts the window out of the continuous flight recording into {@code flightRecording}.
     */
    void stop(String name, Path outputDir, Path flightRecording) {
        command("stop,file=" + samples);
        end = Instant.now();
        // Local times to the second, as JFR.dump takes them; JvmActivity cuts the window exactly.
        ZoneId zone = ZoneId.systemDefault();
        JvmMemory.jcmd(
                pid,
                "JFR.dump name=" + RECORDING
                        + " begin=" + LocalDateTime.ofInstant(begin, zone).truncatedTo(ChronoUnit.SECONDS)
                        + " end="
                        + LocalDateTime.ofInstant(end, zone).plusSeconds(1).truncatedTo(ChronoUnit.SECONDS)
                        + " filename=" + flightRecording);
        flameGraph("--cpu", "CPU of " + name, outputDir.resolve(name + "-cpu.html"));
        flameGraph("--alloc", "Allocation of " + name, outputDir.resolve(name + "-alloc.html"));
    }

    /** When sampling started. */
    Instant begin() {
        return begin;
    }

    /** When sampling stopped; null before {@link #stop}. */
    Instant end() {
        return end;
    }

    /** The CPU samples as collapsed stacks ({@code [thread];frame;...;frame count}), for {@link CpuBreakdown}. */
    String collapsedCpu() {
        return collapsed("--cpu");
    }

    /** Bytes allocated in the window, as async-profiler's allocation samples estimate them. */
    long allocatedBytes() {
        long total = 0;
        for (String line : collapsed("--alloc").split("\n")) {
            int space = line.lastIndexOf(' ');
            if (space > 0) {
                total += Long.parseLong(line.substring(space + 1).trim());
            }
        }
        return total;
    }

    private String collapsed(String event) {
        try {
            Path collapsed = Files.createTempFile(samples.getParent(), "stacks-", ".collapsed");
            convert(samples, collapsed, new Arguments(event, "--total", "--threads", "--dot", "-o", "collapsed"));
            String text = Files.readString(collapsed);
            Files.delete(collapsed);
            return text;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private void flameGraph(String event, String title, Path html) {
        convert(samples, html, new Arguments(event, "--title", title, "--dot"));
    }

    private static void convert(Path jfr, Path output, Arguments arguments) {
        try {
            JfrToFlame.convert(jfr.toString(), output.toString(), arguments);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot convert " + jfr + " to " + output, e);
        }
    }

    private void command(String command) {
        try {
            VirtualMachine vm = VirtualMachine.attach(Long.toString(pid));
            try {
                vm.loadAgentPath(library.toString(), command);
            } finally {
                vm.detach();
            }
        } catch (Exception e) {
            throw new IllegalStateException("async-profiler command '" + command + "' failed on process " + pid, e);
        }
    }

    /** The library for this machine, from the async-profiler jar on the classpath. */
    private static Path unpackLibrary(Path workDir) {
        String arch = System.getProperty("os.arch").toLowerCase(Locale.ROOT);
        String platform = arch.equals("aarch64") || arch.equals("arm64") ? "linux-arm64" : "linux-x64";
        Path library = workDir.resolve("libasyncProfiler.so");
        if (Files.exists(library)) {
            return library;
        }
        try (InputStream in = ProcessProfiler.class.getResourceAsStream("/" + platform + "/libasyncProfiler.so")) {
            if (in == null) {
                throw new IllegalStateException("no " + platform + "/libasyncProfiler.so on the classpath: "
                        + "tools.profiler:async-profiler is a dependency of the bench module");
            }
            Files.copy(in, library, StandardCopyOption.REPLACE_EXISTING);
            return library;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
