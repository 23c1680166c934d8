package io.sluice.server.it;

import io.sluice.admin.AdminServer;
import io.sluice.admission.AdmissionSettings;
import io.sluice.pulsar.lookup.BrokerAllowList;
import io.sluice.pulsar.lookup.BrokerAllowList.BrokerAddress;
import io.sluice.pulsar.lookup.LookupMode;
import io.sluice.server.ClusterSettings;
import io.sluice.server.HostPort;
import io.sluice.server.SluiceConfig;
import io.sluice.server.SluiceServer;
import io.sluice.server.TlsConfig;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

/** A Sluice started in the test JVM with TLS settings of a test's choosing. */
final class TlsSluice {

    private BrokerAddress upstream;
    private int port;
    private LookupMode mode = LookupMode.REWRITE;
    private TlsConfig tls = TlsConfig.NONE;
    private Path adminTokenFile;
    private Duration handshakeTimeout = Duration.ofSeconds(30);

    private TlsSluice(BrokerAddress upstream) {
        this.upstream = upstream;
    }

    /** In front of {@code host:port}; the scheme of {@code tls} says whether Sluice speaks TLS to it. */
    static TlsSluice in(String host, int port) {
        return new TlsSluice(new BrokerAddress(host, port));
    }

    TlsSluice listen(int listenPort) {
        this.port = listenPort;
        return this;
    }

    TlsSluice passthrough() {
        this.mode = LookupMode.PASSTHROUGH;
        return this;
    }

    TlsSluice tls(TlsConfig config) {
        this.tls = config;
        return this;
    }

    TlsSluice adminTokenFile(Path file) {
        this.adminTokenFile = file;
        return this;
    }

    TlsSluice handshakeTimeout(Duration timeout) {
        this.handshakeTimeout = timeout;
        return this;
    }

    SluiceServer start() {
        try {
            return SluiceServer.start(new SluiceConfig(
                    upstream,
                    new HostPort("127.0.0.1", port),
                    new HostPort("127.0.0.1", 0),
                    Files.createTempDirectory("sluice-tls-it").resolve("limits.json"),
                    null,
                    BrokerAllowList.only(upstream),
                    mode,
                    1000,
                    Duration.ofSeconds(10),
                    handshakeTimeout,
                    AdminServer.DEFAULT_IDLE_TIMEOUT,
                    AdmissionSettings.DEFAULTS,
                    ClusterSettings.NONE,
                    null,
                    tls,
                    adminTokenFile));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
