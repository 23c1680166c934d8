package io.sluice.pulsar.gates;

import io.netty.util.concurrent.EventExecutor;
import io.sluice.relay.GateTimer;
import io.sluice.relay.HeldFrames;
import io.sluice.relay.TopicQuota;
import io.sluice.status.CurrentThrottle;

import java.util.function.Consumer;

/**
 * One producer of a client connection, as the publish gate sees it: its topic's quota, the sends
 * it holds for it, the rejections it owes, where it stands with throttle notices, and its timer.
 * Confined to the connection's event loop.
 *
 * <p>Buffer ownership: every frame in {@link #held} belongs to this producer until the gate
 * forwards it (ownership passes to the broker side) or drops it when the producer or connection
 * closes (released there).
 */
final class ProducerState {

    final long producerId;
    final TopicQuota quota;
    final HeldFrames held = new HeldFrames();
    final OrderedRejections rejections = new OrderedRejections();
    final ProducerNotice notice = new ProducerNotice();
    final CurrentThrottle throttle;
    /** Releases held sends when the quota allows; also ends a throttle once it is over. */
    final GateTimer timer;
    /** When each unanswered forwarded send left, for the upstream latency signal. */
    final SendTimes sendTimes = new SendTimes();
    /** Sends forwarded to the broker, and broker answers (receipts or errors) seen, since creation. */
    long forwarded;

    long answered;
    /** For a rejecting or notified producer: when its throttle is over unless it is refused again. */
    long throttleEndsAtNanos;

    ProducerState(
            long producerId,
            TopicQuota quota,
            CurrentThrottle throttle,
            EventExecutor loop,
            long minWaitNanos,
            long maxWaitNanos,
            Consumer<ProducerState> release) {
        this.producerId = producerId;
        this.quota = quota;
        this.throttle = throttle;
        this.timer = new GateTimer(loop, minWaitNanos, maxWaitNanos, () -> release.accept(this));
    }

    long unanswered() {
        return forwarded - answered;
    }
}
