package io.sluice.limits;

/**
 * Which way messages flow through the proxy, or, for a rate of connections, their accept, or, for
 * a consumer group's rates, its coordination requests, or requests that create work, or topic
 * mutations.
 */
public enum Direction {
    /** From producers to the broker. */
    PUBLISH,
    /** From the broker to consumers. */
    DISPATCH,
    /** New client connections, as they are accepted. */
    ACCEPT,
    /** A consumer group's JoinGroup and OffsetCommit requests, on their way to its coordinator. */
    GROUP,
    /**
     * Requests that create work on the broker (a Pulsar LOOKUP or PRODUCER, a Kafka Metadata), on
     * their way to it (docs/REFERENCE.md, "Limits").
     */
    WORK,
    /**
     * Kafka's topic mutations (CreateTopics, CreatePartitions, DeleteTopics), counted in partitions
     * on their way to the controller (docs/REFERENCE.md, "Topic mutations").
     */
    TOPIC
}
