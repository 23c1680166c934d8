package io.sluice.testkit.process;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * One run of a {@link ChildSpec}: a process this JVM started, recorded in a {@link PidFile} until
 * it exits and stopped by the JVM's shutdown hook if nobody stops it before. Restarting means
 * starting the same spec again ({@link RestartableChild}), which appends to the same log.
 *
 * <p>Signals: {@link #terminate} (SIGTERM), {@link #kill} (SIGKILL), {@link #freeze} and
 * {@link #unfreeze} (SIGSTOP, SIGCONT, through the {@code kill} command: POSIX only).
 */
public final class ChildProcess {

    private final ChildSpec spec;
    private final Process process;
    private final long logStart;
    private final PidFile pidFile;
    private volatile boolean frozen;

    private ChildProcess(ChildSpec spec, Process process, long logStart) {
        this.spec = spec;
        this.process = process;
        this.logStart = logStart;
        this.pidFile = PidFile.of(process.pid(), spec.scratchDirectory(), spec.marker());
    }

    /**
     * Reaps orphans ({@link Orphans#reap}), starts the child with its output appended to its log
     * file and records it in a PID file. Returns at once; wait for it with {@link Readiness}.
     */
    public static ChildProcess start(ChildSpec spec) {
        Orphans.reap();
        Path log = spec.logFile();
        ProcessBuilder builder = new ProcessBuilder(spec.command())
                .directory(spec.directory().toFile())
                .redirectErrorStream(true);
        builder.environment().keySet().removeAll(spec.unsetEnvironment());
        builder.environment().putAll(spec.environment());
        if (spec.echoPrefix() == null) {
            builder.redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
        }
        long logStart;
        Process process;
        try {
            Files.createDirectories(log.toAbsolutePath().getParent());
            logStart = LogFile.size(log);
            process = builder.start();
        } catch (IOException e) {
            throw new UncheckedIOException(
                    "cannot start " + spec.name() + ": " + spec.command().get(0), e);
        }
        ChildProcess child = new ChildProcess(spec, process, logStart);
        ExitCleanup.track(child);
        child.pidFile.write();
        process.onExit().thenRun(child::forget);
        if (spec.echoPrefix() != null) {
            Thread echo = new Thread(child::copyOutput, spec.name() + "-output-" + process.pid());
            echo.setDaemon(true);
            echo.start();
        }
        return child;
    }

    /** The short name of the spec. */
    public String name() {
        return spec.name();
    }

    /** The process id. */
    public long pid() {
        return process.pid();
    }

    /** Whether the process runs (a frozen one counts). */
    public boolean isAlive() {
        return process.isAlive();
    }

    /** Its log file (shared with earlier and later runs of the same spec). */
    public Path logFile() {
        return spec.logFile();
    }

    /** The first line this run logged that contains {@code text}, if any yet. */
    public Optional<String> logLine(String text) {
        return LogFile.lineContaining(spec.logFile(), logStart, text);
    }

    /** The end of the log, introduced for appending to a failure message. */
    public String logTail() {
        return LogFile.tail(spec.logFile());
    }

    /**
     * The exit code.
     *
     * @throws IllegalThreadStateException if it still runs
     */
    public int exitValue() {
        return process.exitValue();
    }

    /** Sends SIGTERM (after SIGCONT if frozen, so that it can act on it) and returns at once. */
    public void terminate() {
        unfreeze();
        process.destroy();
    }

    /** SIGTERM, then SIGKILL if it has not exited after {@code grace}; returns once it is gone. */
    public void stop(Duration grace) {
        if (!process.isAlive()) {
            forget();
            return;
        }
        terminate();
        if (!awaitExit(grace)) {
            kill();
        }
        forget();
    }

    /** SIGKILL, as a crash or the OOM killer would; returns once it is gone. */
    public void kill() {
        process.destroyForcibly();
        if (!awaitExit(Duration.ofSeconds(30))) {
            throw new IllegalStateException(name() + " (pid " + pid() + ") still runs 30 s after SIGKILL");
        }
        frozen = false;
        forget();
    }

    /** Suspends the process with SIGSTOP: its sockets stay open but nothing is answered. */
    public void freeze() {
        if (!process.isAlive()) {
            throw new IllegalStateException(name() + " exited with code " + process.exitValue() + logTail());
        }
        signal("STOP");
        frozen = true;
    }

    /** Resumes a process {@link #freeze} suspended; does nothing if it is not frozen. */
    public void unfreeze() {
        if (frozen && process.isAlive()) {
            signal("CONT");
        }
        frozen = false;
    }

    /** Waits up to {@code timeout} for the process to exit; whether it did. */
    public boolean awaitExit(Duration timeout) {
        try {
            return process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for " + name() + " to exit", e);
        }
    }

    @Override
    public String toString() {
        return name() + "[pid " + pid() + (process.isAlive() ? "" : ", exited") + "]";
    }

    /** Drops the records of a process that has exited. */
    void forget() {
        if (!process.isAlive()) {
            pidFile.remove();
            ExitCleanup.untrack(this);
        }
    }

    private void signal(String name) {
        try {
            Process kill = new ProcessBuilder("kill", "-" + name, Long.toString(pid()))
                    .redirectErrorStream(true)
                    .start();
            String output = new String(kill.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (kill.waitFor() != 0) {
                throw new IllegalStateException("kill -" + name + " " + pid() + " failed: " + output);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot run kill -" + name, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while sending SIG" + name, e);
        }
    }

    /** Appends every line of the child's output to its log and echoes it, prefixed, to stdout. */
    private void copyOutput() {
        try (BufferedReader output =
                        new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
                OutputStream log =
                        Files.newOutputStream(spec.logFile(), StandardOpenOption.CREATE, StandardOpenOption.APPEND)) {
            String line;
            while ((line = output.readLine()) != null) {
                log.write((line + "\n").getBytes(StandardCharsets.UTF_8));
                log.flush();
                System.out.println(spec.echoPrefix() + line);
            }
        } catch (IOException e) {
            // The pipe breaks when the process dies; what it wrote is already out.
        }
    }
}
