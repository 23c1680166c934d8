package io.sluice.kafka.gates;

import io.sluice.limits.OnExceed;
import io.sluice.quota.QuotaDecision;
import io.sluice.status.CurrentThrottle;
import io.sluice.status.ThrottleLedger;
import io.sluice.status.ThrottleSubject;
import io.sluice.status.TopicMeter;

/**
 * The throttle one client's produce to (or fetch from) one topic over one connection is under,
 * as {@code /api/v1/throttled} lists it: it begins when Sluice first refuses records of the topic
 * and is over once the buckets have had the time to recover and nothing refused is outstanding.
 * Confined to the connection's event loop.
 */
final class TopicThrottle {

    private final CurrentThrottle current;
    private long endsAtNanos;

    TopicThrottle(ThrottleLedger ledger, ThrottleSubject subject) {
        this.current = new CurrentThrottle(ledger, subject);
    }

    /**
     * Records a refusal of {@code decision}'s scope and reason, Sluice taking {@code action}; the
     * throttle lasts at least until {@code untilNanos}.
     */
    void begin(QuotaDecision decision, OnExceed action, TopicMeter meter, long untilNanos) {
        if (!current.isActive() || untilNanos - endsAtNanos > 0) {
            endsAtNanos = untilNanos;
        }
        current.begin(decision.scope().kind().label(), decision.reason(), action.jsonName(), meter);
    }

    boolean isActive() {
        return current.isActive();
    }

    /** The scope label of the running throttle, for the delay histogram. */
    String scope() {
        return current.scope();
    }

    /** Nanoseconds until the throttle may end; 0 or less when it may end now. */
    long leftNanos(long nowNanos) {
        return endsAtNanos - nowNanos;
    }

    /** Ends the throttle if its time is over and nothing refused is {@code outstanding}; whether it is over. */
    boolean endIfOver(long nowNanos, boolean outstanding) {
        if (current.isActive() && !outstanding && nowNanos - endsAtNanos >= 0) {
            current.end();
        }
        return !current.isActive();
    }

    /** The record in the ledger, for the topic's {@link io.sluice.relay.Hold}. */
    CurrentThrottle record() {
        return current;
    }

    /** What Sluice holds for this client and topic now. */
    void holding(long records, long bytes) {
        current.holding(records, bytes);
    }

    void end() {
        current.end();
    }
}
