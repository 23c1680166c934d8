package io.sluice.kafka.gates;

import io.sluice.limits.OnExceed;
import io.sluice.quota.QuotaDecision;
import io.sluice.relay.Throttling;
import org.apache.kafka.common.protocol.Errors;

/**
 * What {@code delay}, {@code reject} and {@code notify} mean for Kafka (docs/REFERENCE.md,
 * "Actions"; why, docs/KAFKA.md): the one place the produce and fetch gates ask what to do with a
 * partition their buckets refused. The gates carry the answer out and record it as the action
 * taken.
 *
 * <ul>
 *   <li>A partition of a Produce request that has a response: {@code delay} answers it at once with
 *       the retriable {@link #RETRY_ERROR}, and the client sends that batch again after its
 *       back-off; {@code reject} answers it with {@link #REFUSAL_ERROR} and Sluice's message;
 *       {@code notify} lets it through and raises the response's {@code throttle_time_ms}
 *       (KIP-219) from Produce v6, and is {@code delay} before, whose clients do not heed it.</li>
 *   <li>A partition of an {@code acks=0} Produce request: held, whatever the action, since no
 *       response can carry an answer or a signal.</li>
 *   <li>A partition of a Fetch response: {@code notify} from Fetch v8 lets it through and raises
 *       {@code throttle_time_ms}; otherwise its records are cut at a batch boundary and the rest
 *       waits at the broker for the consumer's next fetch, a {@code delay}. {@code reject} has no
 *       meaning for records already written.</li>
 * </ul>
 *
 * Stateless.
 */
final class KafkaActions {

    /** The first Produce version whose clients heed {@code throttle_time_ms} themselves (KIP-219). */
    static final short PRODUCE_NOTIFY_SINCE = 6;
    /** The first Fetch version whose clients heed {@code throttle_time_ms} themselves (KIP-219). */
    static final short FETCH_NOTIFY_SINCE = 8;
    /**
     * The error of a partition Sluice delays: retriable for that batch alone, and unlike the errors
     * of a moved leader it does not make the client refresh its metadata.
     */
    static final Errors RETRY_ERROR = Errors.REQUEST_TIMED_OUT;
    /** The error of a partition Sluice rejects: the client fails that batch's records to the application. */
    static final Errors REFUSAL_ERROR = Errors.POLICY_VIOLATION;

    private KafkaActions() {}

    /**
     * A partition of a Produce request with a response, which the buckets refused:
     * {@link Throttling#RETRY}, {@link Throttling#REFUSE} or {@link Throttling#PAUSE_CLIENT}.
     */
    static Throttling produce(OnExceed action, short version) {
        return switch (action) {
            case DELAY -> Throttling.RETRY;
            case REJECT -> Throttling.REFUSE;
            case NOTIFY -> version >= PRODUCE_NOTIFY_SINCE ? Throttling.PAUSE_CLIENT : Throttling.RETRY;
        };
    }

    /** A partition of an {@code acks=0} Produce request, which the buckets refused: {@link Throttling#HOLD}. */
    static Throttling produceWithoutResponse(OnExceed action) {
        return Throttling.HOLD;
    }

    /** A partition of a Fetch response whose records the buckets refused: {@link Throttling#PAUSE_CLIENT} or {@link Throttling#HOLD}. */
    static Throttling fetch(OnExceed action, short version) {
        return action == OnExceed.NOTIFY && version >= FETCH_NOTIFY_SINCE ? Throttling.PAUSE_CLIENT : Throttling.HOLD;
    }

    /** The message Sluice answers a {@link Throttling#RETRY} or {@link Throttling#REFUSE} partition with. */
    static String answer(Throttling throttling, QuotaDecision decision) {
        return throttling == Throttling.REFUSE
                ? decision.rejectMessage()
                : "Sluice delays this batch: " + decision.rejectMessage() + "; the producer sends it again";
    }
}
