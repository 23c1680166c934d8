package io.sluice.kafka.routing;

/** Whether Sluice puts itself in the broker addresses that responses give clients. */
public enum RoutingMode {
    /** Every broker address becomes Sluice's advertised host and that node's port on Sluice. */
    REWRITE,
    /** Addresses pass unchanged: the brokers already advertise addresses that lead through Sluice. */
    PASSTHROUGH
}
