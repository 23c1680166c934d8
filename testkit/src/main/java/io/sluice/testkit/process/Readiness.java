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
     * @throws IllegalStateException if the child exits first or {@code timeout} passes (it is
     *     killed then, so that a failed start leaves nothing running); the message ends with the
     *     tail of its log
     */
    public static void await(ChildProcess child, String what, Duration timeout, Probe probe) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            if (!child.isAlive()) {
                throw new IllegalStateException(child.name() + " exited with code " + child.exitValue() + " before it "
                        + what + child.logTail());
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
                throw new IllegalStateException(child.name() + " (pid " + child.pid() + ") had not " + what + " after "
                        + timeout.toSeconds() + " s" + child.logTail());
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
