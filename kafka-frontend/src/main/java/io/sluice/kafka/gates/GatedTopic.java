package io.sluice.kafka.gates;

import io.sluice.relay.ConnectionHolds;
import io.sluice.relay.HeldFrames.Held;
import io.sluice.relay.Hold;
import io.sluice.relay.TopicQuota;
import io.sluice.status.CurrentThrottle;
import io.sluice.status.TopicMeter;

/**
 * One topic a connection produces to or fetches from, as that direction's gate sees it: the
 * topic's quota for the connection's client id, its throttle, and its {@link Hold}: the
 * {@code acks=0} batches held (produce only) with the topic's timer, which releases them and ends
 * the throttle when no request comes to do it. For produce also the partitions with a sequence
 * gap. Confined to the connection's event loop.
 *
 * <p>Buffer ownership: every request in {@link #hold} (each a cut of the client's, see
 * {@link io.sluice.kafka.codec.ProduceRequestCut}) belongs to it until the gate forwards it or the
 * connection closes (released there).
 */
final class GatedTopic implements Hold.Holder {

    /** The quota and throttle for the client id of {@link #generation}; both change with it. */
    TopicQuota quota;

    TopicThrottle throttle;
    int generation;
    final SequenceGaps gaps = new SequenceGaps();
    final Hold hold;
    private final TopicRelease release;

    GatedTopic(
            TopicQuota quota,
            TopicThrottle throttle,
            int generation,
            ConnectionHolds holds,
            long maxWaitNanos,
            TopicRelease release) {
        this.quota = quota;
        this.throttle = throttle;
        this.generation = generation;
        this.release = release;
        this.hold = new Hold(holds, 0, maxWaitNanos, release.decision(), Hold.Counted.MESSAGES, this);
    }

    /** The connection's client id changed: the topic's scopes with it. */
    void rechain(TopicQuota quota, TopicThrottle throttle, int generation) {
        this.throttle.end();
        this.quota = quota;
        this.throttle = throttle;
        this.generation = generation;
    }

    /** Whether anything refused or held is still outstanding. */
    boolean outstanding() {
        return !gaps.isEmpty() || !hold.isEmpty();
    }

    /** Nothing held, refused or throttled: the topic can be forgotten without anyone noticing. */
    boolean isIdle() {
        return !outstanding() && !throttle.isActive();
    }

    @Override
    public Hold.Admission admit(Held head, long nowNanos) {
        return release.admit(this, head, nowNanos);
    }

    @Override
    public void forward(Held head, long nowNanos) {
        release.forward(this, head, nowNanos);
    }

    @Override
    public void nothingHeld(long nowNanos) {
        release.nothingHeld(this, nowNanos);
    }

    @Override
    public TopicMeter meter() {
        return quota.meter();
    }

    @Override
    public CurrentThrottle throttle() {
        return throttle.record();
    }
}
