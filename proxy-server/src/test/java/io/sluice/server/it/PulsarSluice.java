package io.sluice.server.it;

import io.sluice.limits.LimitsStore;
import io.sluice.pulsar.frontend.PulsarConfig;
import io.sluice.relay.ProxyServices;
import io.sluice.relay.ProxyStats;
import io.sluice.server.SluiceMain;
import io.sluice.server.SluiceServer;
import io.sluice.testkit.pulsar.PulsarBroker;

import java.nio.file.Files;
import java.util.Map;

/** A Sluice started in the test JVM, as the Pulsar tests look at it: through its Pulsar front end. */
final class PulsarSluice implements AutoCloseable {

    private final SluiceServer server;

    PulsarSluice(SluiceServer server) {
        this.server = server;
    }

    /**
     * A Sluice in front of {@code broker} behind a load balancer on loopback: {@code --proxy-protocol
     * optional --proxy-protocol-from 127.0.0.1/32}, so that a connection from 127.0.0.1 may name its
     * client in a header and one without keeps its socket's address.
     */
    static PulsarSluice behindABalancer(PulsarBroker broker) throws Exception {
        return new PulsarSluice(SluiceServer.start(SluiceMain.parse(
                new String[] {
                    "--upstream", broker.serviceUrl(),
                    "--listen", "127.0.0.1:0",
                    "--admin", "127.0.0.1:0",
                    "--limits-file",
                            Files.createTempDirectory("sluice-proxy")
                                    .resolve("limits.json")
                                    .toString(),
                    "--proxy-protocol", "optional",
                    "--proxy-protocol-from", "127.0.0.1/32"
                },
                Map.of(),
                System.out)));
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
