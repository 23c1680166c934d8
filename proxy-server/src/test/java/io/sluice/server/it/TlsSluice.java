package io.sluice.server.it;

import io.sluice.frontend.HostPort;
import io.sluice.pulsar.frontend.PulsarConfig;
import io.sluice.pulsar.lookup.BrokerAllowList;
import io.sluice.pulsar.lookup.BrokerAllowList.BrokerAddress;
import io.sluice.pulsar.lookup.LookupMode;
import io.sluice.server.SluiceConfig;
import io.sluice.server.SluiceServer;
import io.sluice.server.TlsConfig;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/** A Sluice started in the test JVM with TLS settings of a test's choosing. */
final class TlsSluice {

    private BrokerAddress upstream;
    private int port;
    private LookupMode mode = LookupMode.REWRITE;
    private TlsConfig tls = TlsConfig.NONE;
    private boolean upstreamTls;
    private Path adminTokenFile;
    private Duration handshakeTimeout = Duration.ofSeconds(30);

    private TlsSluice(BrokerAddress upstream) {
        this.upstream = upstream;
    }

    /** In front of {@code host:port}, in plaintext unless {@link #upstreamTls()} says otherwise. */
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

    /** Sluice speaks TLS to the broker, as with {@code --upstream pulsar+ssl://}. */
    TlsSluice upstreamTls() {
        this.upstreamTls = true;
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

    PulsarSluice start() {
        try {
            return new PulsarSluice(SluiceServer.start(SluiceConfig.embedded(
                            List.of(new PulsarConfig(
                                    upstream,
                                    upstreamTls,
                                    new HostPort("127.0.0.1", port),
                                    BrokerAllowList.only(upstream),
                                    mode,
                                    "sub")),
                            Files.createTempDirectory("sluice-tls-it").resolve("limits.json"))
                    .handshakeTimeout(handshakeTimeout)
                    .tls(tls)
                    .adminTokenFile(adminTokenFile)
                    .build()));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
