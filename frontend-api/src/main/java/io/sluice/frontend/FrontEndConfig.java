package io.sluice.frontend;

import io.sluice.relay.ProxyStats;

/**
 * One front end's section of the configuration, as its {@link FrontEndFactory#configure} made it
 * from the options (or a test or an embedding program built it directly): everything it needs to
 * open its ports, and what the server must know about it beforehand, its name, its counters and
 * whether its upstream speaks TLS. Best a record of the front end's own settings, immutable.
 */
public interface FrontEndConfig {

    /**
     * Its protocol, lower case: the {@code protocol} label of its metrics, throttle records and
     * traffic meters ({@code pulsar}, {@code kafka}), and how the server names it
     * ({@code SluiceServer.port("pulsar")}). Unique among the front ends.
     */
    String protocol();

    /** Its name in log lines: {@code Pulsar}, {@code Kafka}. */
    String name();

    /** Whether it listens on several ports (Kafka's bootstrap and node ports), for log lines about their TLS. */
    default boolean severalPorts() {
        return false;
    }

    /**
     * Whether Sluice speaks TLS to its upstream, as the option its factory names in
     * {@link FrontEndFactory#upstreamTlsCondition()} asked; then its {@link FrontEndContext}
     * carries the upstream TLS context.
     */
    boolean upstreamTls();

    /** Its connection counters, labelled with {@link #protocol()}; the server makes them once, before {@link #open}. */
    default ProxyStats newStats() {
        return new ProxyStats(protocol());
    }

    /** The front end, its ports not yet bound ({@link FrontEnd#start()} binds them). */
    FrontEnd open(FrontEndContext context);
}
