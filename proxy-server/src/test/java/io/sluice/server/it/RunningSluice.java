package io.sluice.server.it;

import io.sluice.admin.AdminServer;
import io.sluice.admission.AdmissionSettings;
import io.sluice.frontend.HostPort;
import io.sluice.pulsar.connection.PulsarSettings;
import io.sluice.pulsar.frontend.PulsarConfig;
import io.sluice.pulsar.lookup.BrokerAllowList;
import io.sluice.pulsar.lookup.BrokerAllowList.BrokerAddress;
import io.sluice.pulsar.lookup.LookupMode;
import io.sluice.relay.proxyprotocol.ProxyProtocol;
import io.sluice.server.AdminAccess;
import io.sluice.server.ClusterSettings;
import io.sluice.server.ConnectionBounds;
import io.sluice.server.SluiceConfig;
import io.sluice.server.SluiceServer;
import io.sluice.server.TlsConfig;
import io.sluice.server.logging.LogSettings;
import io.sluice.testkit.pulsar.PulsarBroker;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/** A Sluice started in the test JVM in front of a real broker, in one of the two deployments. */
final class RunningSluice implements AutoCloseable {

    final PulsarSluice server;
    final String serviceUrl;

    private RunningSluice(PulsarSluice server) {
        this.server = server;
        this.serviceUrl = "pulsar://127.0.0.1:" + server.proxyPort();
    }

    /** Front proxy: any free port, lookups rewritten, only the broker's own address allowed. */
    static RunningSluice frontProxy(PulsarBroker broker) {
        BrokerAddress upstream = BrokerAddress.parse(broker.serviceUrl());
        return start(upstream, 0, LookupMode.REWRITE);
    }

    /**
     * Sidecar: listens on the port the broker advertises on its external listener and forwards to
     * the extra port the broker binds for that listener; lookups pass through.
     */
    static RunningSluice sidecar(PulsarBroker broker) {
        BrokerAddress upstream = new BrokerAddress("127.0.0.1", broker.externalBindPort());
        return start(upstream, broker.sidecarPort(), LookupMode.PASSTHROUGH);
    }

    /** A front proxy keeping its limits in {@code limitsFile}, as a restarted Sluice would. */
    static RunningSluice frontProxy(PulsarBroker broker, Path limitsFile) {
        return frontProxy(broker, 0, limitsFile);
    }

    /** A front proxy on a given port, to take over from one that stopped there. */
    static RunningSluice frontProxy(PulsarBroker broker, int port, Path limitsFile) {
        return start(BrokerAddress.parse(broker.serviceUrl()), port, LookupMode.REWRITE, limitsFile);
    }

    private static RunningSluice start(BrokerAddress upstream, int port, LookupMode mode) {
        try {
            return start(
                    upstream, port, mode, Files.createTempDirectory("sluice-it").resolve("limits.json"));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A front proxy with admission control set up as given. */
    static RunningSluice frontProxy(PulsarBroker broker, AdmissionSettings admission) {
        try {
            return start(
                    BrokerAddress.parse(broker.serviceUrl()),
                    0,
                    LookupMode.REWRITE,
                    Files.createTempDirectory("sluice-it").resolve("limits.json"),
                    admission);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A front proxy that closes connections without a handshake, and idle admin connections, after the given times. */
    static RunningSluice frontProxy(PulsarBroker broker, Duration handshakeTimeout, Duration adminIdleTimeout) {
        try {
            return start(
                    BrokerAddress.parse(broker.serviceUrl()),
                    0,
                    LookupMode.REWRITE,
                    Files.createTempDirectory("sluice-it").resolve("limits.json"),
                    AdmissionSettings.DEFAULTS,
                    handshakeTimeout,
                    adminIdleTimeout);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A front proxy whose admin API wants {@code Authorization: Bearer adminToken}. */
    static RunningSluice frontProxyWithAdminToken(PulsarBroker broker, String adminToken) {
        return frontProxy(broker, adminToken, SluiceConfig.DEFAULT_METRICS_MAX_IDENTITIES);
    }

    private static RunningSluice start(BrokerAddress upstream, int port, LookupMode mode, Path limitsFile) {
        return start(upstream, port, mode, limitsFile, AdmissionSettings.DEFAULTS);
    }

    private static RunningSluice start(
            BrokerAddress upstream, int port, LookupMode mode, Path limitsFile, AdmissionSettings admission) {
        return start(
                upstream,
                port,
                mode,
                limitsFile,
                admission,
                PulsarSettings.DEFAULT_HANDSHAKE_TIMEOUT,
                AdminServer.DEFAULT_IDLE_TIMEOUT);
    }

    private static RunningSluice start(
            BrokerAddress upstream,
            int port,
            LookupMode mode,
            Path limitsFile,
            AdmissionSettings admission,
            Duration handshakeTimeout,
            Duration adminIdleTimeout) {
        return start(upstream, port, mode, limitsFile, admission, handshakeTimeout, adminIdleTimeout, null);
    }

    private static RunningSluice start(
            BrokerAddress upstream,
            int port,
            LookupMode mode,
            Path limitsFile,
            AdmissionSettings admission,
            Duration handshakeTimeout,
            Duration adminIdleTimeout,
            String adminToken) {
        return start(
                upstream,
                port,
                mode,
                limitsFile,
                admission,
                handshakeTimeout,
                adminIdleTimeout,
                adminToken,
                SluiceConfig.DEFAULT_METRICS_MAX_IDENTITIES);
    }

    /** A front proxy whose throttle-event counters name at most {@code metricsMaxIdentities} principals and roles. */
    static RunningSluice frontProxyNamingIdentities(PulsarBroker broker, int metricsMaxIdentities) {
        return frontProxy(broker, null, metricsMaxIdentities);
    }

    private static RunningSluice frontProxy(PulsarBroker broker, String adminToken, int metricsMaxIdentities) {
        try {
            return start(
                    BrokerAddress.parse(broker.serviceUrl()),
                    0,
                    LookupMode.REWRITE,
                    Files.createTempDirectory("sluice-it").resolve("limits.json"),
                    AdmissionSettings.DEFAULTS,
                    PulsarSettings.DEFAULT_HANDSHAKE_TIMEOUT,
                    AdminServer.DEFAULT_IDLE_TIMEOUT,
                    adminToken,
                    metricsMaxIdentities);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static RunningSluice start(
            BrokerAddress upstream,
            int port,
            LookupMode mode,
            Path limitsFile,
            AdmissionSettings admission,
            Duration handshakeTimeout,
            Duration adminIdleTimeout,
            String adminToken,
            int metricsMaxIdentities) {
        try {
            SluiceConfig config = new SluiceConfig(
                    List.of(new PulsarConfig(
                            upstream,
                            false,
                            new HostPort("127.0.0.1", port),
                            BrokerAllowList.only(upstream),
                            mode,
                            "sub")),
                    new HostPort("127.0.0.1", 0),
                    limitsFile,
                    adminToken,
                    1000,
                    metricsMaxIdentities,
                    Duration.ofSeconds(10),
                    handshakeTimeout,
                    adminIdleTimeout,
                    admission,
                    ClusterSettings.NONE,
                    TlsConfig.NONE,
                    null,
                    AdminAccess.DEFAULTS,
                    ConnectionBounds.DEFAULTS,
                    List.of(),
                    ProxyProtocol.OFF,
                    LogSettings.DEFAULTS);
            return new RunningSluice(new PulsarSluice(SluiceServer.start(config)));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** Base URL of the admin API. */
    String adminUrl() {
        return "http://127.0.0.1:" + server.adminPort();
    }

    @Override
    public void close() {
        server.close();
    }
}
