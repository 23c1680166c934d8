package io.sluice.relay;

import io.netty.buffer.ByteBuf;
import io.sluice.quota.QuotaDecision;
import io.sluice.relay.HeldFrames.Held;
import io.sluice.status.CurrentThrottle;
import io.sluice.status.TopicMeter;

/**
 * The frames a gate holds for one holder (a producer, a topic of a connection) until its buckets
 * admit them, whatever the protocol: the frames in order ({@link HeldFrames}), the holder's timer
 * on the connection's one timer, and what a held frame counts for, kept in step: the bytes
 * against the connection's budget ({@link ConnectionBudget}), the messages and bytes on the
 * topic's meter, what the holder's throttle record shows as held, and the delay each frame waited,
 * in the throttle ledger's histogram.
 *
 * <p>When the timer fires the hold asks its {@link Holder} about the oldest frame, "admit now?":
 * while the answer is yes it forwards it (through the holder) and asks about the next; at the
 * first "later" it waits for as long as the holder's decision says; a frame the holder refuses
 * outright is handed back to it. After the run the holder learns whether anything is left, the
 * forwarded frames are flushed once, and the budget may resume the connection.
 *
 * <p>Buffer ownership: a frame is this hold's from {@link #add} until the holder's
 * {@link Holder#forward} or {@link Holder#refused} takes it, or {@link #close} releases it.
 *
 * <p>Confined to the connection's event loop.
 */
public final class Hold {

    /** What becomes of the oldest held frame now. */
    public enum Admission {
        /** It goes now, charged to the buckets. */
        NOW,
        /** It waits: the holder's decision says how long. */
        LATER,
        /** It never goes (the limit turned to reject meanwhile): handed to {@link Holder#refused}. */
        REFUSED
    }

    /** What the holder's throttle record shows as held. */
    public enum Counted {
        /** Frames held (Pulsar's sends). */
        FRAMES,
        /** Messages (or records) held. */
        MESSAGES
    }

    /** The one a hold keeps frames for: it admits them, forwards them and keeps the records. */
    public interface Holder {

        /**
         * Whether {@code head}, the oldest held frame, may go now, charged when it may; when it may
         * not, the decision the hold was made with says how long it waits. {@code head} stays held.
         */
        Admission admit(Held head, long nowNanos);

        /** Forwards {@code head}, admitted and no longer held; takes ownership of its frame. */
        void forward(Held head, long nowNanos);

        /** {@code head} was refused and is no longer held; takes ownership of its frame (releases it). */
        default void refused(Held head, long nowNanos) {
            head.frame().release();
        }

        /** A run of the timer left nothing held: ends the throttle, or looks again later. */
        void nothingHeld(long nowNanos);

        /** The topic's meter, which counts what is held. */
        TopicMeter meter();

        /** The holder's throttle record, which shows what is held and names the scope of a delay. */
        CurrentThrottle throttle();
    }

    private final ConnectionHolds connection;
    private final QuotaDecision decision;
    private final Counted counted;
    private final Holder holder;
    private final HeldFrames held = new HeldFrames();
    private final WakeUp timer;

    /**
     * @param connection   what the connection's holds share
     * @param minWaitNanos shortest wait of the timer: a hold that wakes at most this often forwards
     *                     what fell due in between in one run, with one flush
     * @param maxWaitNanos longest wait of the timer before it looks again (picks up limit changes)
     * @param decision     where the holder's {@link Holder#admit} leaves how long a frame waits
     */
    public Hold(
            ConnectionHolds connection,
            long minWaitNanos,
            long maxWaitNanos,
            QuotaDecision decision,
            Counted counted,
            Holder holder) {
        this.connection = connection;
        this.decision = decision;
        this.counted = counted;
        this.holder = holder;
        this.timer = connection.timers().timer(minWaitNanos, maxWaitNanos, this::release);
    }

    /**
     * Holds {@code frame}, which costs {@code messages} and {@code bytes}, behind the others; takes
     * ownership. {@code sequenceId} is what a rejection of it would name, or {@link HeldFrames#NO_SEQUENCE}.
     */
    public void add(ByteBuf frame, int messages, long bytes, long sequenceId, long nowNanos) {
        held.add(frame, messages, bytes, sequenceId, nowNanos);
        connection.budget().held(bytes);
        holder.meter().held(messages, bytes);
        showHolding();
        connection.budget().check();
    }

    /**
     * Runs the release (or, with nothing held, {@link Holder#nothingHeld}) after {@code waitNanos},
     * clamped, unless a run is already pending.
     */
    public void lookAgainIn(long waitNanos) {
        timer.schedule(waitNanos);
    }

    /** Whether a run of the timer is pending. */
    public boolean isScheduled() {
        return timer.isScheduled();
    }

    public boolean isEmpty() {
        return held.isEmpty();
    }

    /** How many frames are held. */
    public int size() {
        return held.size();
    }

    public long messages() {
        return held.messages();
    }

    public long bytes() {
        return held.bytes();
    }

    /**
     * The holder is gone (closed, or its connection): the timer stops, every held frame is
     * released and what it counted for given back; returns how many frames were dropped.
     */
    public int close() {
        timer.cancel();
        connection.budget().held(-held.bytes());
        holder.meter().held(-held.messages(), -held.bytes());
        return held.releaseAll();
    }

    /** Timer task: forwards the held frames while the holder admits them, then waits again. */
    private void release() {
        long now = connection.timers().nanoTime();
        boolean moved = false;
        Held head;
        while ((head = held.peek()) != null) {
            Admission admission = holder.admit(head, now);
            if (admission == Admission.LATER) {
                timer.schedule(decision.waitNanos());
                break;
            }
            unhold();
            moved = true;
            if (admission == Admission.REFUSED) {
                holder.refused(head, now);
                continue;
            }
            connection.throttles().delayed(holder.throttle().scope(), now - head.heldAtNanos());
            holder.forward(head, now);
        }
        if (held.isEmpty()) {
            holder.nothingHeld(now);
        } else {
            showHolding();
        }
        if (moved) {
            connection.flush().run();
        }
        connection.budget().check();
    }

    /** Takes the oldest frame out, and what it counted for with it; the caller owns its frame. */
    private void unhold() {
        Held head = held.poll();
        connection.budget().held(-head.bytes());
        holder.meter().held(-head.messages(), -head.bytes());
    }

    private void showHolding() {
        holder.throttle().holding(counted == Counted.FRAMES ? held.size() : held.messages(), held.bytes());
    }
}
