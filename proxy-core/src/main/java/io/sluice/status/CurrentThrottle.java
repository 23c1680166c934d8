package io.sluice.status;

/**
 * The throttle one producer or consumer is under now, if any: begins it in the
 * {@link ThrottleLedger} (counting a throttle event), changes its action, ends it. A throttle
 * that goes on with the same action is one event, however many messages it holds.
 *
 * <p>Confined to the connection's event loop; the ledger entry it keeps is read from any thread.
 */
public final class CurrentThrottle {

    private final ThrottleLedger ledger;
    private final ThrottleSubject subject;
    private Throttle throttle;

    public CurrentThrottle(ThrottleLedger ledger, ThrottleSubject subject) {
        this.ledger = ledger;
        this.subject = subject;
    }

    /**
     * Starts a throttle at {@code scope} for {@code reason}, Sluice taking {@code action}; one
     * already running with the same action goes on, one with another action is replaced.
     *
     * @param meter the topic's meter, which counts the throttle event
     */
    public void begin(String scope, String reason, String action, TopicMeter meter) {
        if (throttle != null) {
            if (throttle.action().equals(action)) {
                return;
            }
            ledger.end(throttle);
        }
        throttle = ledger.begin(subject, scope, reason, action);
        meter.throttled();
    }

    /** The running throttle goes on with another action, for the same scope and reason. */
    public void relabel(String action, TopicMeter meter) {
        Throttle old = throttle;
        ledger.end(old);
        throttle = ledger.begin(subject, old.scope(), old.reason(), action);
        meter.throttled();
    }

    /** The throttle is over. */
    public void end() {
        if (throttle != null) {
            ledger.end(throttle);
            throttle = null;
        }
    }

    public boolean isActive() {
        return throttle != null;
    }

    /** The throttled scope's label, or {@code topic} when none is running. */
    public String scope() {
        return throttle == null ? "topic" : throttle.scope();
    }

    /** What Sluice holds for this producer or consumer now; shown by {@code /api/v1/throttled}. */
    public void holding(long messages, long bytes) {
        if (throttle != null) {
            throttle.holding(messages, bytes);
        }
    }
}
