package io.sluice.pulsar.gates;

/**
 * Where one producer of a client that takes throttle notices stands in a {@code notify} throttle
 * (docs/PROTOCOL-EXTENSION.md). Confined to the connection's event loop.
 *
 * <pre>
 * NONE --notified--> AWAITING_RECEIPT --receipt in time--> RELYING --throttle over--> NONE
 *                          |                                  |
 *                          +--no receipt in time--> MISSED <--+-- a send during the pause
 * </pre>
 * MISSED is for good: {@code notify} acts as {@code delay} for that producer from then on.
 */
final class ProducerNotice {

    enum State {
        /** Not notified: its sends pass the quota check. */
        NONE,
        /** Told to pause; its receipt is due. Sends that were in flight meanwhile are forwarded and charged. */
        AWAITING_RECEIPT,
        /** The client confirmed the pause: it sends nothing more for this producer until the pause is over. */
        RELYING,
        /** The receipt did not come in time, or the client sent during the pause it confirmed. */
        MISSED
    }

    private State state = State.NONE;
    private long requestId;
    private long pauseEndsAtNanos;

    /** The client was told to pause until {@code pauseEndsAtNanos} in notice {@code requestId}. */
    void notified(long requestId, long pauseEndsAtNanos) {
        this.state = State.AWAITING_RECEIPT;
        this.requestId = requestId;
        this.pauseEndsAtNanos = pauseEndsAtNanos;
    }

    /** The receipt came in time: rely on the client to pause. */
    void relying() {
        state = State.RELYING;
    }

    /** The client cannot be relied on for this producer any more. */
    void missed() {
        state = State.MISSED;
    }

    /** The throttle is over: a producer that kept its word may be notified again. */
    void reset() {
        if (state != State.MISSED) {
            state = State.NONE;
        }
    }

    State state() {
        return state;
    }

    boolean isAwaitingReceipt() {
        return state == State.AWAITING_RECEIPT;
    }

    /** Whether notice {@code id} is the one whose receipt is awaited. */
    boolean awaits(long id) {
        return state == State.AWAITING_RECEIPT && requestId == id;
    }

    /** The request id of the awaited notice; meaningful while {@link #isAwaitingReceipt}. */
    long requestId() {
        return requestId;
    }

    boolean hasMissed() {
        return state == State.MISSED;
    }

    /** Whether the client confirmed a pause that is not over yet. */
    boolean isPausing(long nowNanos) {
        return state == State.RELYING && nowNanos - pauseEndsAtNanos < 0;
    }
}
