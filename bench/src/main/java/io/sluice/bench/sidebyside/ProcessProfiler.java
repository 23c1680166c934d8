package io.sluice.bench.sidebyside;

import com.sun.tools.attach.VirtualMachine;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Locale;
import one.convert.Arguments;
import one.convert.JfrToFlame;

/**
 * async-profiler (the native library shipped in {@code tools.profiler:async-profiler}) attached to
 * a proxy's running JVM for one window of load: CPU samples with kernel stacks, allocation samples,
 * and a JDK Flight Recording of the same window (GC, compilation, ...), all in one JFR file. On
 * {@link #stop} it writes CPU and allocation flame graphs (HTML) and returns the file's path.
 *
 * <p>Attaching loads the agent into the target through the JDK's attach API, the way
 * async-profiler's own launcher does; the target needs no option at start (but
 * {@code -XX:+DebugNonSafepoints} makes inlined frames exact, see {@link #JVM_OPTIONS}).
 */
final class ProcessProfiler {

    /** JVM options that make a profile of the process exact; given to both proxies alike when profiling. */
    static final java.util.List<String> JVM_OPTIONS = java.util.List.of(
            "-XX:+UnlockDiagnosticVMOptions", "-XX:+DebugNonSafepoints");

    /** One CPU sample per millisecond of CPU time, one allocation sample per 256 KiB allocated. */
    private static final String EVENTS = "event=cpu,interval=1ms,alloc=256k";

    private final long pid;
    private final Path library;
    private final Path jfr;

    private ProcessProfiler(long pid, Path library, Path jfr) {
        this.pid = pid;
        this.library = library;
        this.jfr = jfr;
    }

    /**
     * Starts profiling process {@code pid}; the recording goes to {@code jfr}.
     *
     * @param workDir where the native library is unpacked
     */
    static ProcessProfiler start(long pid, Path workDir, Path jfr) {
        ProcessProfiler profiler = new ProcessProfiler(pid, unpackLibrary(workDir), jfr);
        // jfrsync: a JDK recording of the same window with the JDK's default settings, into the same file.
        profiler.command("start," + EVENTS + ",jfrsync=default,file=" + jfr);
        return profiler;
    }

    /**
     * Stops the recording and writes {@code <name>-cpu.html} and {@code <name>-alloc.html} to
     * {@code outputDir}; returns the JFR file.
     */
    Path stop(String name, Path outputDir) {
        command("stop,file=" + jfr);
        flameGraph("--cpu", "CPU of " + name, outputDir.resolve(name + "-cpu.html"));
        flameGraph("--alloc", "Allocation of " + name, outputDir.resolve(name + "-alloc.html"));
        return jfr;
    }

    /** The samples of the recording as collapsed stacks ({@code thread;frame;...;frame count}), for {@link CpuBreakdown}. */
    static String collapsedCpu(Path jfr) {
        try {
            Path collapsed = Files.createTempFile(jfr.getParent(), "cpu-", ".collapsed");
            convert(jfr, collapsed, new Arguments("--cpu", "--threads", "--dot", "-o", "collapsed"));
            String text = Files.readString(collapsed);
            Files.delete(collapsed);
            return text;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private void flameGraph(String event, String title, Path html) {
        convert(jfr, html, new Arguments(event, "--title", title, "--dot"));
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
