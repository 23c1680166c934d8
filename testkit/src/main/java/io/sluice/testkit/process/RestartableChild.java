package io.sluice.testkit.process;

import java.time.Duration;

/**
 * The process of a long-lived fixture (a broker, a server) across its restarts: at most one
 * {@link ChildProcess} at a time, stopped, killed, frozen and started again through here. Stopping
 * or killing what is not running does nothing.
 */
public final class RestartableChild {

    private final String what;
    private ChildProcess current;

    /**
     * Holds no process yet.
     *
     * @param what the fixture, for messages, e.g. {@code "the broker"}
     */
    public RestartableChild(String what) {
        this.what = what;
    }

    /**
     * Starts {@code spec} and waits until {@code probe} reports it ready.
     *
     * @throws IllegalStateException if it is already running, or it is not ready in time (it is
     *     killed then; see {@link Readiness#await})
     */
    public synchronized ChildProcess start(ChildSpec spec, String readiness, Duration timeout, Readiness.Probe probe) {
        launch(spec);
        Readiness.await(current, readiness, timeout, probe);
        return current;
    }

    /** Starts {@code spec} without waiting; see {@link Readiness} for that. */
    public synchronized ChildProcess launch(ChildSpec spec) {
        if (isRunning()) {
            throw new IllegalStateException(what + " is already running");
        }
        current = spec.start();
        return current;
    }

    /**
     * The current (or, once it exited, the last) process.
     *
     * @throws IllegalStateException if none ever ran
     */
    public synchronized ChildProcess current() {
        if (current == null) {
            throw new IllegalStateException(what + " never ran");
        }
        return current;
    }

    /** The PID of the current (or, once it exited, the last) process. */
    public synchronized long pid() {
        return current().pid();
    }

    /** Whether a process runs (a frozen one counts). */
    public synchronized boolean isRunning() {
        return current != null && current.isAlive();
    }

    /** SIGTERM, then SIGKILL if it has not exited after {@code grace}. */
    public synchronized void stop(Duration grace) {
        if (current != null) {
            current.stop(grace);
        }
    }

    /** SIGKILL, as a crash would. */
    public synchronized void kill() {
        if (current != null) {
            current.kill();
        }
    }

    /**
     * SIGSTOP: its sockets stay open but nothing is answered.
     *
     * @throws IllegalStateException if not running
     */
    public synchronized void freeze() {
        if (!isRunning()) {
            throw new IllegalStateException(what + " is not running");
        }
        current.freeze();
    }

    /** SIGCONT after {@link #freeze}; does nothing if not frozen. */
    public synchronized void unfreeze() {
        if (current != null) {
            current.unfreeze();
        }
    }
}
