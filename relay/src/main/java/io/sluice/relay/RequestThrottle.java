package io.sluice.relay;

import io.sluice.quota.NanoClock;
import io.sluice.quota.QuotaDecision;
import io.sluice.status.Throttle;
import io.sluice.status.ThrottleLedger;
import io.sluice.status.ThrottleSubject;

import java.util.function.BooleanSupplier;

/**
 * The throttle of a client's requests that are not messages of a topic (a Kafka group's joins, a
 * client's lookups or metadata requests), from the first request over its rate until the wait it
 * was given is over and its gate holds nothing more: begun in the {@link ThrottleLedger} (one
 * throttle event) for as long as the subject and the action stay the same, each later refusal
 * only extending it, and ended by its own timer. Confined to the connection's event loop.
 */
public final class RequestThrottle {

    private final ThrottleLedger ledger;
    private final NanoClock clock;
    private final BooleanSupplier holding;
    private final WakeUp timer;
    private Throttle throttle;
    private ThrottleSubject subject;
    private long endsAtNanos;

    /**
     * @param timers       the connection's one timer, which the throttle's ending is on
     * @param maxWaitNanos longest the timer waits before it looks again
     * @param holding      whether the gate still holds a request of the client: the throttle goes on meanwhile
     */
    public RequestThrottle(
            ThrottleLedger ledger, WakeUps timers, NanoClock clock, long maxWaitNanos, BooleanSupplier holding) {
        this.ledger = ledger;
        this.clock = clock;
        this.holding = holding;
        this.timer = timers.timer(maxWaitNanos, this::endIfOver);
    }

    /**
     * {@code subject} is throttled as {@code decision} found, Sluice taking {@code action}, until
     * {@code untilNanos} at least: a throttle of another subject or action is ended and this one
     * begun.
     */
    public void throttled(
            ThrottleSubject subject, QuotaDecision decision, String action, long nowNanos, long untilNanos) {
        if (throttle == null || !throttle.action().equals(action) || !subject.equals(this.subject)) {
            end();
            throttle = ledger.begin(subject, decision.scope().kind().label(), decision.reason(), action);
            this.subject = subject;
            endsAtNanos = untilNanos;
        } else if (untilNanos - endsAtNanos > 0) {
            endsAtNanos = untilNanos;
        }
        timer.cancel();
        timer.schedule(endsAtNanos - nowNanos);
    }

    /** What Sluice holds for the client now, as {@code /api/v1/throttled} shows it. */
    public void holding(long messages, long bytes) {
        if (throttle != null) {
            throttle.holding(messages, bytes);
        }
    }

    /** Ends the throttle if its time is over and nothing is held, else looks again later. */
    public void endIfOver() {
        if (throttle == null) {
            return;
        }
        long left = endsAtNanos - clock.nanoTime();
        if (left > 0 || holding.getAsBoolean()) {
            timer.schedule(Math.max(left, WakeUp.MIN_WAIT_NANOS));
            return;
        }
        end();
    }

    /** The throttle is over, or the connection closes: the ledger entry ends, the timer stops. */
    public void end() {
        timer.cancel();
        if (throttle != null) {
            ledger.end(throttle);
            throttle = null;
            subject = null;
        }
    }
}
