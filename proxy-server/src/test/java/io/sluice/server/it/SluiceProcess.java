package io.sluice.server.it;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * {@code sluice.jar} running as its own process, as an operator runs it, for tests that stop it
 * with a signal: SIGTERM to drain, SIGKILL to crash, then perhaps start it again with the same
 * options. Its log (stdout and stderr) is echoed to the test's output with the prefix
 * {@code [sluice]}, so Netty leak reports show up there too.
 */
final class SluiceProcess implements AutoCloseable {

    private static final int READY_TIMEOUT_SECONDS = 60;

    private final List<String> options;
    private Process process;
    private String readyLine;

    private SluiceProcess(List<String> options) {
        this.options = options;
    }

    /** The command line {@code java -jar sluice.jar OPTIONS} with the jar the build made. */
    static List<String> command(String... options) {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        // The child runs under the test JVM's leak detector, so its leaks are reported as well.
        String leakDetection = System.getProperty("io.netty.leakDetection.level");
        if (leakDetection != null) {
            command.add("-Dio.netty.leakDetection.level=" + leakDetection);
        }
        command.addAll(List.of("-jar", System.getProperty("sluice.jar")));
        command.addAll(List.of(options));
        return command;
    }

    /**
     * Starts Sluice with {@code options} and returns once it logged its ready line.
     *
     * @throws IllegalStateException if it exits before that (the message quotes its log) or is
     *     not ready within 60 s
     */
    static SluiceProcess start(String... options) {
        SluiceProcess sluice = new SluiceProcess(List.of(options));
        sluice.launch();
        return sluice;
    }

    /**
     * Starts Sluice again with the same options (so on the same port, with the same limits file)
     * once the last process has exited; returns once it is ready.
     */
    void restart() {
        if (process.isAlive()) {
            throw new IllegalStateException("sluice.jar still runs; kill or terminate it first");
        }
        launch();
    }

    private void launch() {
        try {
            process = new ProcessBuilder(command(options.toArray(String[]::new))).redirectErrorStream(true).start();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start sluice.jar", e);
        }
        CompletableFuture<String> ready = new CompletableFuture<>();
        Process started = process;
        Thread echo = new Thread(() -> echo(started, ready), "sluice-log-" + started.pid());
        echo.setDaemon(true);
        echo.start();
        try {
            readyLine = ready.get(READY_TIMEOUT_SECONDS, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            throw new IllegalStateException(e.getCause().getMessage(), e.getCause());
        } catch (TimeoutException e) {
            started.destroyForcibly();
            throw new IllegalStateException("sluice.jar was not ready within " + READY_TIMEOUT_SECONDS + " s", e);
        } catch (InterruptedException e) {
            started.destroyForcibly();
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for sluice.jar", e);
        }
    }

    /** Copies the log to stdout and completes {@code ready} with the ready line, or fails it at the end of the log. */
    private static void echo(Process process, CompletableFuture<String> ready) {
        List<String> beforeReady = new ArrayList<>();
        try (BufferedReader log = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
            String line;
            while ((line = log.readLine()) != null) {
                System.out.println("[sluice] " + line);
                if (!ready.isDone()) {
                    beforeReady.add(line);
                    if (line.contains("Sluice ready")) {
                        ready.complete(line);
                    }
                }
            }
        } catch (IOException e) {
            // The pipe breaks when the process dies; what it logged is already out.
        }
        ready.completeExceptionally(new IllegalStateException("sluice.jar exited before it was ready:\n"
                + String.join("\n", beforeReady)));
    }

    /** The line the current process logged when it began to accept clients, naming its ports. */
    String readyLine() {
        return readyLine;
    }

    /** SIGKILL, as a crash or the OOM killer would; returns once the process is gone. */
    void kill() throws InterruptedException {
        process.destroyForcibly().waitFor();
    }

    /** SIGTERM, as a pod stop sends: Sluice drains and exits. */
    void terminate() {
        process.destroy();
    }

    /**
     * Waits for the process to exit and returns its exit code.
     *
     * @throws AssertionError if it still runs after {@code seconds}
     */
    int awaitExit(int seconds) throws InterruptedException {
        if (!process.waitFor(seconds, TimeUnit.SECONDS)) {
            throw new AssertionError("sluice.jar still runs " + seconds + " s after it was asked to stop");
        }
        return process.exitValue();
    }

    /** Kills the process if it still runs, so a failed test leaves no Sluice behind. */
    @Override
    public void close() throws InterruptedException {
        if (process.isAlive()) {
            kill();
        }
    }
}
