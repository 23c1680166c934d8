package io.sluice.kafka.gates;

import io.netty.util.concurrent.EventExecutor;
import io.sluice.relay.GateTimer;
import io.sluice.relay.HeldFrames;
import io.sluice.relay.TopicQuota;

import java.util.function.Consumer;

/**
 * One topic a connection produces to or fetches from, as that direction's gate sees it: the
 * topic's quota for the connection's client id, its throttle, and its timer (releases held
 * batches, ends the throttle when no request comes to do it). For produce also the partitions
 * with a sequence gap and the {@code acks=0} batches held. Confined to the connection's event loop.
 *
 * <p>Buffer ownership: every request in {@link #held} (each a cut of the client's, see
 * {@link io.sluice.kafka.codec.ProduceRequestCut}) belongs to this topic until the gate
 * forwards it or the connection closes (released there).
 */
final class GatedTopic {

    /** The quota and throttle for the client id of {@link #generation}; both change with it. */
    TopicQuota quota;

    TopicThrottle throttle;
    int generation;
    final SequenceGaps gaps = new SequenceGaps();
    final HeldFrames held = new HeldFrames();
    final GateTimer timer;

    GatedTopic(
            TopicQuota quota,
            TopicThrottle throttle,
            int generation,
            EventExecutor loop,
            long maxWaitNanos,
            Consumer<GatedTopic> tick) {
        this.quota = quota;
        this.throttle = throttle;
        this.generation = generation;
        this.timer = new GateTimer(loop, maxWaitNanos, () -> tick.accept(this));
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
        return !gaps.isEmpty() || !held.isEmpty();
    }

    /** Nothing held, refused or throttled: the topic can be forgotten without anyone noticing. */
    boolean isIdle() {
        return !outstanding() && !throttle.isActive();
    }
}
