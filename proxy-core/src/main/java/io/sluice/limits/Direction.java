package io.sluice.limits;

/** Which way messages flow through the proxy. */
public enum Direction {
    /** From producers to the broker. */
    PUBLISH,
    /** From the broker to consumers. */
    DISPATCH
}
