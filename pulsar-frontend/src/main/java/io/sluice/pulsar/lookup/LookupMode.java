package io.sluice.pulsar.lookup;

/** How Sluice treats the broker's answers to topic lookups. */
public enum LookupMode {
    /**
     * Lookups pass through untouched. For the sidecar deployment, where the broker advertises the
     * sidecar's address on the listener Sluice connects to.
     */
    PASSTHROUGH,
    /**
     * Lookup answers are rewritten to {@code proxy_through_service_url=true}, so clients open their
     * next connection to Sluice, naming the broker in {@code CONNECT.proxy_to_broker_url}.
     */
    REWRITE
}
