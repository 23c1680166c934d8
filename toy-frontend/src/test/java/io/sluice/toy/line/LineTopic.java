package io.sluice.toy.line;

import io.sluice.limits.OnExceed;
import io.sluice.quota.QuotaDecision;
import io.sluice.quota.QuotaPath;
import io.sluice.relay.ConnectionHolds;
import io.sluice.relay.HeldFrames.Held;
import io.sluice.relay.Hold;
import io.sluice.relay.TopicQuota;
import io.sluice.status.CurrentThrottle;
import io.sluice.status.TopicMeter;

/**
 * One topic a line connection publishes to: its quota, its throttle record and the lines held for
 * it (a {@link Hold}, which admits them as the topic's buckets allow). Confined to the connection's
 * event loop.
 */
final class LineTopic implements Hold.Holder {

    /** A held line looks again at least this often, to pick up changed limits. */
    private static final long MAX_WAIT_NANOS = 100_000_000;
    /** And at most this often: a wake-up sends what fell due meanwhile. */
    private static final long MIN_WAIT_NANOS = 1_000_000;

    final TopicQuota quota;
    final CurrentThrottle throttle;
    final Hold hold;
    private final QuotaDecision decision;
    private final LineConnection connection;

    LineTopic(
            TopicQuota quota,
            CurrentThrottle throttle,
            ConnectionHolds holds,
            QuotaDecision decision,
            LineConnection connection) {
        this.quota = quota;
        this.throttle = throttle;
        this.decision = decision;
        this.connection = connection;
        this.hold = new Hold(holds, MIN_WAIT_NANOS, MAX_WAIT_NANOS, decision, Hold.Counted.MESSAGES, this);
    }

    /** Whether a line of {@code bytes} may go now, charged when it may; else {@link #decision} says why. */
    boolean tryAcquire(long nowNanos, long bytes) {
        QuotaPath path = quota.path(nowNanos);
        return path.isUnlimited() || path.tryAcquire(nowNanos, 1, bytes, decision);
    }

    @Override
    public Hold.Admission admit(Held head, long nowNanos) {
        return tryAcquire(nowNanos, head.bytes()) ? Hold.Admission.NOW : Hold.Admission.LATER;
    }

    @Override
    public void forward(Held head, long nowNanos) {
        quota.meter().published(head.messages(), head.bytes());
        connection.released(head.frame());
    }

    /**
     * The held line went and the client is read again; the throttle goes on while the buckets are
     * empty, so that a client whose every line waits is one throttle, not one a line.
     */
    @Override
    public void nothingHeld(long nowNanos) {
        connection.resumed();
        long wait = quota.path(nowNanos).waitNanos(nowNanos);
        if (wait > 0 && throttle.isActive()) {
            hold.lookAgainIn(wait);
        } else {
            throttle.end();
        }
    }

    /** Records that the topic's lines are held, at the scope {@link #decision} names. */
    void throttled() {
        throttle.begin(decision.scope().kind().label(), decision.reason(), OnExceed.DELAY.jsonName(), quota.meter());
    }

    @Override
    public TopicMeter meter() {
        return quota.meter();
    }

    @Override
    public CurrentThrottle throttle() {
        return throttle;
    }
}
