package io.sluice.admission;

/**
 * The kinds of new work a client asks for; each has its own {@link BreakerState breaker}.
 * Sends on an admitted producer are never subject to admission control.
 */
public enum RequestType {
    /** A new client connection. */
    CONNECT,
    /** A topic lookup or partitioned-metadata request. */
    LOOKUP,
    /** A new producer on a topic. */
    PRODUCER,
    /** A new subscription consumer on a topic. */
    SUBSCRIBE
}
