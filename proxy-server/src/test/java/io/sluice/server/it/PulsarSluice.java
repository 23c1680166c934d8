package io.sluice.server.it;

import io.sluice.limits.LimitsStore;
import io.sluice.pulsar.frontend.PulsarConfig;
import io.sluice.relay.ProxyServices;
import io.sluice.relay.ProxyStats;
import io.sluice.server.SluiceServer;

/** A Sluice started in the test JVM, as the Pulsar tests look at it: through its Pulsar front end. */
final class PulsarSluice implements AutoCloseable {

    private final SluiceServer server;

    PulsarSluice(SluiceServer server) {
        this.server = server;
    }

    /** The Pulsar port clients connect to. */
    int proxyPort() {
        return server.port(PulsarConfig.PROTOCOL);
    }

    /** The Pulsar front end's connection counters. */
    ProxyStats stats() {
        return server.stats(PulsarConfig.PROTOCOL);
    }

    /** The services the Pulsar connections use. */
    ProxyServices services() {
        return server.services(PulsarConfig.PROTOCOL);
    }

    int adminPort() {
        return server.adminPort();
    }

    LimitsStore limits() {
        return server.limits();
    }

    @Override
    public void close() {
        server.close();
    }
}
