package io.sluice.pulsar.gates;

import io.sluice.quota.QuotaDecision;
import io.sluice.relay.ConnectionHolds;
import io.sluice.relay.Hold;
import io.sluice.relay.TopicQuota;
import io.sluice.status.CurrentThrottle;

import java.util.function.Function;

/**
 * One producer of a client connection, as the publish gate sees it: its topic's quota, the sends
 * it holds for it and its timer (its {@link Hold}), the rejections it owes, and where it stands
 * with throttle notices. Confined to the connection's event loop.
 *
 * <p>Buffer ownership: every frame in {@link #hold} belongs to this producer until the gate
 * forwards it (ownership passes to the broker side) or drops it when the producer or connection
 * closes (released there).
 */
final class ProducerState {

    final long producerId;
    final TopicQuota quota;
    final OrderedRejections rejections = new OrderedRejections();
    final ProducerNotice notice = new ProducerNotice();
    final CurrentThrottle throttle;
    /** The held sends, released when the quota allows; its timer also ends a throttle once it is over. */
    final Hold hold;
    /** When each unanswered forwarded send left, for the upstream latency signal. */
    final SendTimes sendTimes = new SendTimes();
    /** Sends forwarded to the broker, and broker answers (receipts or errors) seen, since creation. */
    long forwarded;

    long answered;
    /** For a rejecting or notified producer: when its throttle is over unless it is refused again. */
    long throttleEndsAtNanos;

    /**
     * @param decision where the gate's admission of a held send leaves how long it waits
     * @param holder   the gate's side of the producer's hold
     */
    ProducerState(
            long producerId,
            TopicQuota quota,
            CurrentThrottle throttle,
            ConnectionHolds holds,
            long minWaitNanos,
            long maxWaitNanos,
            QuotaDecision decision,
            Function<ProducerState, Hold.Holder> holder) {
        this.producerId = producerId;
        this.quota = quota;
        this.throttle = throttle;
        this.hold = new Hold(holds, minWaitNanos, maxWaitNanos, decision, Hold.Counted.FRAMES, holder.apply(this));
    }

    long unanswered() {
        return forwarded - answered;
    }
}
