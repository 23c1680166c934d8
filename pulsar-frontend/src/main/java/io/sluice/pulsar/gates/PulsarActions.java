package io.sluice.pulsar.gates;

import io.sluice.limits.OnExceed;
import io.sluice.pulsar.codec.proto.ServerError;
import io.sluice.relay.Throttling;

/**
 * What {@code delay}, {@code reject} and {@code notify} mean for Pulsar (docs/REFERENCE.md,
 * "Actions"): the one place the publish and dispatch gates ask what to do with traffic their
 * buckets refused. The gates carry the answer out and record it as the action taken.
 *
 * <ul>
 *   <li>A SEND: {@code delay} holds it; {@code reject} refuses it with a SendError
 *       ({@link #REFUSAL}) and Sluice's message; {@code notify} lets it through and tells the client
 *       to pause the producer (ThrottleProducer) when the client set the feature flag and has not
 *       missed a receipt, and holds it otherwise.</li>
 *   <li>A SEND already held: it stays held, or is refused in its turn once the limit turned to
 *       {@code reject}; a notice cannot take back a send the client already made.</li>
 *   <li>FLOW permits: withheld until the buckets allow, whatever the action. The broker sends a
 *       consumer no more than its permits, so the messages wait at the broker: a {@code delay}.
 *       A consumer has no send to refuse, and Pulsar no notice to pause one.</li>
 * </ul>
 *
 * Stateless.
 */
final class PulsarActions {

    /** The error of a refused send: stock clients fail that message with NotAllowedException and keep the connection. */
    static final ServerError REFUSAL = ServerError.NotAllowedError;

    private PulsarActions() {}

    /**
     * A SEND the buckets refused.
     *
     * @param action            what the most specific exceeded limit asks for
     * @param clientHeedsNotices whether the client takes throttle notices and has kept its word for this producer
     */
    static Throttling send(OnExceed action, boolean clientHeedsNotices) {
        return switch (action) {
            case DELAY -> Throttling.HOLD;
            case REJECT -> Throttling.REFUSE;
            case NOTIFY -> clientHeedsNotices ? Throttling.PAUSE_CLIENT : Throttling.HOLD;
        };
    }

    /** A held SEND the buckets still refuse: {@link Throttling#REFUSE} or {@link Throttling#HOLD}. */
    static Throttling heldSend(OnExceed action) {
        return action == OnExceed.REJECT ? Throttling.REFUSE : Throttling.HOLD;
    }

    /** FLOW permits the buckets refused: {@link Throttling#HOLD}, whatever {@code action} says. */
    static Throttling permits(OnExceed action) {
        return Throttling.HOLD;
    }
}
