package io.sluice.testkit.process;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.time.Duration;

/** Waiting for a child to be ready, failing early if it exits and with its log's tail either way. */
public final class Readiness {

    private static final long POLL_MILLIS = 100;

    /** A check of readiness; an {@link IOException} means not ready yet. */
    @FunctionalInterface
    public interface Probe {
        boolean ready() throws IOException;
    }

    private Readiness() {}

    /**
     * Polls {@code probe} until it answers true.
     *
     * @param what what readiness means, for the failure message, e.g. {@code "answered PING"}
     * @throws ChildStartException if the child exits first or {@code timeout} passes (it is
     *     killed then, so that a failed start leaves nothing running); the message names its log,
     *     says what to do and ends with the log's tail
     */
    public static void await(ChildProcess child, String what, Duration timeout, Probe probe) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            if (!child.isAlive()) {
                throw ChildStartException.of(
                        child,
                        child.name() + " exited with code " + child.exitValue() + " before it " + what,
                        "The cause is in its last lines, below. A start that fails once and then works is worth"
                                + " an issue with that log; one that keeps failing names there what to fix (a port,"
                                + " the disk, a setting)");
            }
            try {
                if (probe.ready()) {
                    return;
                }
            } catch (IOException e) {
                // Not ready yet.
            }
            if (System.nanoTime() > deadline) {
                child.kill();
                throw ChildStartException.of(
                        child,
                        child.name() + " (pid " + child.pid() + ") had not " + what + " after " + timeout.toSeconds()
                                + " s and was killed",
                        "A busy machine starts slowly: look at `uptime`, stop other work and run again; on an idle"
                                + " one, its last lines below say where the start stopped");
            }
            try {
                Thread.sleep(POLL_MILLIS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                child.kill();
                throw new IllegalStateException("interrupted while waiting for " + child.name(), e);
            }
        }
    }

    /** Ready once a TCP connection to {@code 127.0.0.1:port} succeeds. */
    public static Probe portOpen(int port) {
        return () -> {
            try (Socket socket = new Socket()) {
                socket.connect(new InetSocketAddress("127.0.0.1", port), 500);
                return true;
            }
        };
    }

    /** Ready once the child has logged a line containing {@code text} since it started. */
    public static Probe logLine(ChildProcess child, String text) {
        return () -> child.logLine(text).isPresent();
    }
}
