package io.sluice.kafka.gates;

import org.apache.kafka.common.protocol.Errors;

/** What becomes of one partition of a Produce request, and the error Sluice answers it with, if it does. */
enum ProduceOutcome {
    /** Goes to the broker, charged. */
    FORWARD(null),
    /** Answered with the retriable {@link KafkaActions#RETRY_ERROR}: the client sends it again. */
    BOUNCE(KafkaActions.RETRY_ERROR),
    /** Answered with {@link KafkaActions#REFUSAL_ERROR}: its records fail to the application. */
    REJECT(KafkaActions.REFUSAL_ERROR),
    /** {@code acks=0}: held in Sluice, forwarded when the buckets allow. */
    HOLD(null),
    /** Its topic id could not be learnt: answered UNKNOWN_TOPIC_ID, or with {@code acks=0} dropped. */
    UNKNOWN_ID(Errors.UNKNOWN_TOPIC_ID),
    /** A batch the broker would refuse as corrupt: answered CORRUPT_MESSAGE, or with {@code acks=0} dropped. */
    MALFORMED(Errors.CORRUPT_MESSAGE);

    /** Sluice's answer for the partition; null when the broker's answer (or none) is the client's. */
    final Errors answer;

    ProduceOutcome(Errors answer) {
        this.answer = answer;
    }
}
