package io.sluice.admission;

/**
 * The kinds of new work a client asks for, whatever its protocol; each has its own
 * {@link BreakerState breaker}. Traffic of admitted producers and consumers is never subject to
 * admission control.
 */
public enum RequestType {
    /** A new client connection. */
    NEW_CONNECTION,
    /** A metadata request: a Pulsar topic lookup or partitioned-metadata request, a Kafka Metadata request. */
    METADATA,
    /** A new Pulsar producer. */
    NEW_PRODUCER,
    /** A new Pulsar consumer (a subscription). */
    NEW_CONSUMER
}
