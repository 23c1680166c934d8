package io.sluice.bench.sidebyside;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * A JVM this suite launched (Sluice or Apache Pulsar's proxy), its output in a log file, stopped
 * with SIGTERM and then SIGKILL. Being a separate process lets the suite read its CPU time and
 * RSS from {@code /proc} without counting the load generator.
 */
final class ChildJvm implements AutoCloseable {

    private static final Duration STOP_GRACE = Duration.ofSeconds(10);

    private final String name;
    private final Process process;
    private final Path logFile;

    private ChildJvm(String name, Process process, Path logFile) {
        this.name = name;
        this.process = process;
        this.logFile = logFile;
    }

    /**
     * Starts {@code java JVM_ARGS} with its output appended to {@code logFile}.
     *
     * @param environment extra environment variables (a long classpath goes there, not into {@code ps})
     */
    static ChildJvm start(String name, List<String> jvmArgs, Map<String, String> environment, Path logFile) {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(jvmArgs);
        ProcessBuilder builder = new ProcessBuilder(command)
                .directory(logFile.getParent().toFile())
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(logFile.toFile()));
        builder.environment().putAll(environment);
        try {
            ChildJvm child = new ChildJvm(name, builder.start(), logFile);
            // A suite that dies on an exception must not leave a proxy behind.
            Runtime.getRuntime().addShutdownHook(new Thread(child.process::destroyForcibly, name + "-kill"));
            return child;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start " + name, e);
        }
    }

    long pid() {
        return process.pid();
    }

    /** Fails with the log's tail if the JVM has exited. */
    void requireAlive() {
        if (!process.isAlive()) {
            throw new IllegalStateException(name + " exited with code " + process.exitValue() + logTail());
        }
    }

    /** Waits until the log contains {@code line}; fails with the log's tail if the JVM exits first. */
    void awaitLogLine(String line, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!logContains(line)) {
            if (!process.isAlive()) {
                throw new IllegalStateException(name + " exited with code " + process.exitValue()
                        + " before it logged '" + line + "'" + logTail());
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException(name + " did not log '" + line + "' within "
                        + timeout.toSeconds() + " s" + logTail());
            }
            Sleep.millis(100);
        }
    }

    private boolean logContains(String line) {
        try {
            return Files.exists(logFile) && Files.readString(logFile, StandardCharsets.UTF_8).contains(line);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    String logTail() {
        try {
            List<String> lines = Files.readAllLines(logFile, StandardCharsets.UTF_8);
            return "; last lines of " + logFile + ":\n"
                    + String.join("\n", lines.subList(Math.max(0, lines.size() - 40), lines.size()));
        } catch (IOException e) {
            return "; no log at " + logFile;
        }
    }

    @Override
    public void close() {
        process.destroy();
        try {
            if (!process.waitFor(STOP_GRACE.toMillis(), TimeUnit.MILLISECONDS)) {
                process.destroyForcibly().waitFor();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            process.destroyForcibly();
        }
    }
}
