package io.sluice.relay;

import io.sluice.limits.ConnectionLimits;

import java.util.function.IntConsumer;
import java.util.function.Supplier;

/**
 * What one client connection has outstanding against its connection limits: sends without a
 * broker answer yet (held in Sluice or forwarded) and bytes held in Sluice. Over either limit the
 * connection is paused; it resumes when both are at most half their limit again, so a client at
 * the edge does not make reading flap.
 *
 * <p>Confined to the connection's event loop.
 */
public final class ConnectionBudget {

    /** Which limit a paused connection went over. */
    public enum Breach {
        /** More sends without an answer than {@code maxPendingSends}. */
        PENDING_SENDS,
        /** More bytes held than {@code maxHeldBytes}. */
        HELD_BYTES
    }

    /** Stops and restarts reading the client. */
    public interface Pause {

        /** The connection went over a limit: stop taking its frames. */
        void pause(Breach breach);

        /** The connection is back under half of both limits: take its frames again. */
        void resume();

        /**
         * Stops reading for {@code reason} (a {@link ReadGate} reason, or a front end's own) with
         * {@code pause}, whatever limit was breached, and restarts it with {@code resume}.
         */
        static Pause of(IntConsumer pause, IntConsumer resume, int reason) {
            return new Pause() {
                @Override
                public void pause(Breach breach) {
                    pause.accept(reason);
                }

                @Override
                public void resume() {
                    resume.accept(reason);
                }
            };
        }
    }

    private final Supplier<ConnectionLimits> limits;
    private final Pause pause;
    private long pendingSends;
    private long heldBytes;
    private boolean paused;

    /** @param limits the limits in force, read at every check so that a change applies at once */
    public ConnectionBudget(Supplier<ConnectionLimits> limits, Pause pause) {
        this.limits = limits;
        this.pause = pause;
    }

    /** A send arrived that the broker will (or Sluice will, with a rejection) answer. */
    public void sendPending() {
        pendingSends++;
    }

    /** {@code count} sends were answered or dropped. */
    public void sendsDone(long count) {
        pendingSends -= count;
    }

    /** {@code bytes} more (or, negative, fewer) are held in Sluice. */
    public void held(long bytes) {
        heldBytes += bytes;
    }

    public long pendingSends() {
        return pendingSends;
    }

    public long heldBytes() {
        return heldBytes;
    }

    public boolean isPaused() {
        return paused;
    }

    /** Pauses or resumes the connection for what is outstanding now. */
    public void check() {
        ConnectionLimits in = limits.get();
        if (!paused) {
            boolean tooManyPending = pendingSends > in.maxPendingSends();
            if (tooManyPending || heldBytes > in.maxHeldBytes()) {
                paused = true;
                pause.pause(tooManyPending ? Breach.PENDING_SENDS : Breach.HELD_BYTES);
            }
        } else if (pendingSends <= in.maxPendingSends() / 2 && heldBytes <= in.maxHeldBytes() / 2) {
            paused = false;
            pause.resume();
        }
    }
}
