package io.sluice.testkit.sluice;

import io.sluice.testkit.process.ChildProcess;
import io.sluice.testkit.process.ChildSpec;
import io.sluice.testkit.process.JavaCommand;
import io.sluice.testkit.process.Readiness;
import io.sluice.testkit.process.RestartableChild;
import io.sluice.testkit.process.ScratchDirectories;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code sluice.jar} running as a process of its own, as an operator runs it: for tests that stop
 * it with a signal (SIGTERM to drain, SIGKILL to crash, then perhaps start it again with the same
 * options) and for benchmarks that measure its CPU and memory apart from the load generator.
 * {@link #start(String...)} is the tests' way: the jar the build made, the test JVM's leak
 * detector, and its log echoed to the test output with the prefix {@code [sluice]}, so that Netty
 * leak reports show up there too.
 */
public final class SluiceProcess implements AutoCloseable {

    /** What Sluice logs once it accepts clients; the line names its ports. */
    public static final String READY_LINE = "Sluice ready";

    private static final Duration READY_TIMEOUT = Duration.ofSeconds(60);

    private final ChildSpec spec;
    private final Path scratch;
    private final RestartableChild process = new RestartableChild("sluice.jar");
    private String readyLine;

    private SluiceProcess(ChildSpec spec, Path scratch) {
        this.spec = spec;
        this.scratch = scratch;
    }

    /** Returns a builder for {@code java JVM_OPTIONS -jar JAR OPTIONS}. */
    public static Builder builder(Path jar) {
        return new Builder(jar);
    }

    /**
     * The jar the build made, named by the system property {@code sluice.jar} (which the
     * proxy-server and bench builds set for their tests).
     */
    public static Path builtJar() {
        String jar = System.getProperty("sluice.jar");
        if (jar == null) {
            throw new IllegalStateException("the system property sluice.jar does not name Sluice's jar");
        }
        return Path.of(jar);
    }

    /**
     * Starts {@link #builtJar()} with {@code options}, the test JVM's Netty leak detection level
     * and its log echoed to stdout; returns once it logged its ready line.
     *
     * @throws IllegalStateException if it exits before that (the message quotes its log) or is
     *     not ready within 60 s
     */
    public static SluiceProcess start(String... options) {
        return builder(builtJar())
                .jvmOptions(leakDetectionOfThisJvm())
                .options(options)
                .echo("[sluice] ")
                .start();
    }

    /**
     * The command line {@link #start(String...)} runs, {@code java [-Dio.netty.leakDetection.level=L]
     * -jar sluice.jar OPTIONS}, for a test that starts it by other means to read its streams apart.
     */
    public static List<String> command(String... options) {
        return JavaCommand.jar(builtJar())
                .jvmOptions(leakDetectionOfThisJvm())
                .args(options)
                .command();
    }

    /** The child runs under the test JVM's leak detector, so its leaks are reported as well. */
    private static List<String> leakDetectionOfThisJvm() {
        String level = System.getProperty("io.netty.leakDetection.level");
        return level == null ? List.of() : List.of("-Dio.netty.leakDetection.level=" + level);
    }

    /** The line the current process logged when it began to accept clients, naming its ports. */
    public synchronized String readyLine() {
        return readyLine;
    }

    /** The PID of the current (or, once it exited, the last) process. */
    public long pid() {
        return process.pid();
    }

    /** Its log (stdout and stderr), kept across restarts. */
    public Path logFile() {
        return spec.logFile();
    }

    /**
     * Starts Sluice again with the same options (so on the same port, with the same limits file)
     * once the last process has exited; returns once it is ready.
     */
    public synchronized void restart() {
        launch();
    }

    /** SIGKILL, as a crash or the OOM killer would; returns once the process is gone. */
    public void kill() {
        process.kill();
    }

    /** SIGTERM, as a pod stop sends: Sluice drains and exits. Returns at once. */
    public void terminate() {
        process.current().terminate();
    }

    /** SIGTERM, then SIGKILL if it still runs after {@code grace}; returns once it is gone. */
    public void stop(Duration grace) {
        process.stop(grace);
    }

    /**
     * Waits for the process to exit and returns its exit code.
     *
     * @throws AssertionError if it still runs after {@code seconds}
     */
    public int awaitExit(int seconds) {
        ChildProcess current = process.current();
        if (!current.awaitExit(Duration.ofSeconds(seconds))) {
            throw new AssertionError("sluice.jar still runs " + seconds + " s after it was asked to stop");
        }
        return current.exitValue();
    }

    /** Kills the process if it still runs, so a failed test leaves no Sluice behind. */
    @Override
    public synchronized void close() {
        process.kill();
        if (scratch != null) {
            ScratchDirectories.delete(scratch);
        }
    }

    private void launch() {
        ChildProcess started = process.launch(spec);
        Readiness.await(started, "logged '" + READY_LINE + "'", READY_TIMEOUT, Readiness.logLine(started, READY_LINE));
        readyLine = started.logLine(READY_LINE).orElseThrow();
    }

    /** Options of a Sluice process; {@link #start()} launches it. */
    public static final class Builder {
        private final Path jar;
        private final List<String> jvmOptions = new ArrayList<>();
        private final List<String> options = new ArrayList<>();
        private Path logFile;
        private String echoPrefix;

        private Builder(Path jar) {
            this.jar = jar;
        }

        /** Adds options for the JVM, e.g. {@code -Xmx512m}. */
        public Builder jvmOptions(List<String> jvmOptions) {
            this.jvmOptions.addAll(jvmOptions);
            return this;
        }

        /** Adds Sluice's own options, e.g. {@code --upstream pulsar://127.0.0.1:6650}. */
        public Builder options(String... sluiceOptions) {
            options.addAll(List.of(sluiceOptions));
            return this;
        }

        /**
         * Where its stdout and stderr go (its directory becomes Sluice's working directory); by
         * default {@code sluice.log} in a scratch directory deleted by {@link SluiceProcess#close()}.
         */
        public Builder logFile(Path file) {
            this.logFile = file;
            return this;
        }

        /** Also copies every line of its log to stdout, behind {@code prefix}. */
        public Builder echo(String prefix) {
            this.echoPrefix = prefix;
            return this;
        }

        /**
         * Starts Sluice and returns once it logged its ready line.
         *
         * @throws IllegalStateException if it exits before that or is not ready within 60 s; the
         *     message ends with the tail of its log
         */
        public SluiceProcess start() {
            Path scratch = logFile == null ? ScratchDirectories.create("process") : null;
            ChildSpec.Builder spec = JavaCommand.jar(jar)
                    .jvmOptions(jvmOptions)
                    .args(options)
                    .spec("sluice")
                    .logFile(scratch != null ? scratch.resolve("sluice.log") : logFile)
                    .scratchDirectory(scratch);
            if (echoPrefix != null) {
                spec.echo(echoPrefix);
            }
            SluiceProcess sluice = new SluiceProcess(spec.build(), scratch);
            try {
                synchronized (sluice) {
                    sluice.launch();
                }
                return sluice;
            } catch (RuntimeException e) {
                if (scratch != null) {
                    ScratchDirectories.delete(scratch);
                }
                throw e;
            }
        }
    }
}
