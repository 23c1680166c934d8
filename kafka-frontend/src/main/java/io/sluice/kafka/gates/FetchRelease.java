package io.sluice.kafka.gates;

import io.sluice.quota.QuotaDecision;
import io.sluice.relay.HeldFrames.Held;
import io.sluice.relay.Hold;

/**
 * What the timer of a topic the connection fetches from does, for the {@link FetchGate} and the
 * {@link ShareFetchGate}: records are cut or requests held, never batches, so nothing waits in
 * the topic's hold; the timer ends the topic's throttle once it is over if no response came to end
 * it. Confined to the connection's event loop.
 */
final class FetchRelease implements TopicRelease {

    /** Never filled: nothing is admitted here. */
    private final QuotaDecision decision = new QuotaDecision();

    @Override
    public QuotaDecision decision() {
        return decision;
    }

    @Override
    public Hold.Admission admit(GatedTopic topic, Held head, long nowNanos) {
        throw new IllegalStateException("nothing is held for a topic fetched from");
    }

    @Override
    public void forward(GatedTopic topic, Held head, long nowNanos) {
        throw new IllegalStateException("nothing is held for a topic fetched from");
    }

    @Override
    public void nothingHeld(GatedTopic topic, long nowNanos) {
        if (!topic.throttle.endIfOver(nowNanos, false)) {
            topic.hold.lookAgainIn(topic.throttle.leftNanos(nowNanos));
        }
    }
}
