package io.sluice.kafka.gates;

import io.sluice.quota.QuotaDecision;
import io.sluice.relay.HeldFrames.Held;
import io.sluice.relay.Hold;

/**
 * What one direction's gate does for each of its topics when the topic's timer fires: the gate's
 * side of the topic's {@link Hold} ({@link Hold.Holder}), with the topic named. Confined to the
 * connection's event loop.
 */
interface TopicRelease {

    /** Where {@link #admit} leaves how long a held batch waits. */
    QuotaDecision decision();

    /** See {@link Hold.Holder#admit}. */
    Hold.Admission admit(GatedTopic topic, Held head, long nowNanos);

    /** See {@link Hold.Holder#forward}; takes ownership of {@code head}'s frame. */
    void forward(GatedTopic topic, Held head, long nowNanos);

    /** See {@link Hold.Holder#nothingHeld}: ends the topic's throttle once it is over, or looks again. */
    void nothingHeld(GatedTopic topic, long nowNanos);
}
