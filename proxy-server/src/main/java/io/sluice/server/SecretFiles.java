package io.sluice.server;

import io.sluice.admin.http.AdminToken;
import io.sluice.relay.ProxyStats;
import io.sluice.relay.tls.FileWatch;
import io.sluice.relay.tls.ReloadingSslContext;
import io.sluice.relay.tls.ServerTlsFiles;
import io.sluice.relay.tls.TlsFileException;
import io.sluice.relay.tls.TlsProvider;
import io.sluice.relay.tls.UpstreamTlsFiles;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import javax.net.SocketFactory;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What Sluice reads from certificate, key, CA and token files, and the watch that reads them again
 * when they change: the TLS contexts of the protocol ports (Pulsar and Kafka), the admin port and
 * the upstreams, and the admin token. A file that cannot be used at start stops Sluice; one that cannot be used later
 * keeps what is in force (see {@link ReloadingSslContext} and {@link AdminToken}).
 *
 * <p>The protocol ports and the admin port present the same certificate from two contexts, because
 * only the protocol ports ask for client certificates: Kubernetes probes and Prometheus have none
 * to give. The Pulsar and Kafka upstreams trust the same CA, so they share one context.
 */
final class SecretFiles implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(SecretFiles.class);

    private final FileWatch watch;
    private final TlsConfig config;
    private final ReloadingSslContext portTls;
    private final ReloadingSslContext adminTls;
    private final ReloadingSslContext upstreamTls;
    private final AdminToken adminToken;

    private SecretFiles(
            FileWatch watch,
            TlsConfig config,
            ReloadingSslContext portTls,
            ReloadingSslContext adminTls,
            ReloadingSslContext upstreamTls,
            AdminToken adminToken) {
        this.watch = watch;
        this.config = config;
        this.portTls = portTls;
        this.adminTls = adminTls;
        this.upstreamTls = upstreamTls;
        this.adminToken = adminToken;
    }

    /**
     * Reads every file the configuration names and starts watching them.
     *
     * @throws IllegalArgumentException naming the option whose file cannot be used
     */
    static SecretFiles open(SluiceConfig config, ProxyStats stats, Duration checkInterval) {
        TlsConfig tls = config.tls();
        ReloadingSslContext ports = null;
        ReloadingSslContext admin = null;
        ReloadingSslContext upstream = null;
        AdminToken token;
        try {
            if (tls.serves()) {
                ports = ReloadingSslContext.load(
                        portsRole(config), new ServerTlsFiles(tls.certificate(), tls.key(), tls.clientCa()), stats);
                admin = ReloadingSslContext.load(
                        "the admin port", new ServerTlsFiles(tls.certificate(), tls.key(), null), stats);
            }
            if (tls.toUpstream()) {
                upstream = ReloadingSslContext.load(
                        tls.pulsarUpstream() && tls.kafkaUpstream()
                                ? "the upstreams"
                                : tls.pulsarUpstream() ? "the Pulsar upstream" : "the Kafka upstream",
                        new UpstreamTlsFiles(tls.upstreamCa()),
                        stats);
            }
            if (tls.serves() || tls.toUpstream()) {
                log.info("TLS by {}", TlsProvider.describe());
            }
        } catch (TlsFileException e) {
            throw new IllegalArgumentException("invalid " + optionOf(e.file(), tls) + ": " + e.getMessage());
        }
        try {
            token = config.adminTokenFile() != null
                    ? AdminToken.fromFile(config.adminTokenFile())
                    : config.adminToken() != null ? AdminToken.of(config.adminToken()) : null;
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("invalid --admin-token-file: " + e.getMessage());
        }
        FileWatch watch = new FileWatch(checkInterval);
        if (ports != null) {
            // One set of files: the admin port follows the protocol ports, so a bad file is reported once.
            ReloadingSslContext protocolPorts = ports;
            ReloadingSslContext adminPort = admin;
            watch.watch(ports.files(), () -> {
                if (protocolPorts.reload()) {
                    adminPort.reload();
                }
            });
        }
        if (upstream != null) {
            watch.watch(upstream.files(), upstream::reload);
        }
        if (token != null && token.file() != null) {
            watch.watch(List.of(token.file()), token::reload);
        }
        return new SecretFiles(watch, tls, ports, admin, upstream, token);
    }

    /** The protocol ports, in log lines about their files. */
    private static String portsRole(SluiceConfig config) {
        return config.upstream() == null
                ? "the Kafka ports"
                : config.kafka() == null ? "the Pulsar port" : "the Pulsar and Kafka ports";
    }

    private static String optionOf(Path file, TlsConfig tls) {
        Map<Path, String> options = new LinkedHashMap<>();
        if (tls.upstreamCa() != null) {
            options.put(tls.upstreamCa(), "--upstream-tls-ca");
        }
        if (tls.clientCa() != null) {
            options.put(tls.clientCa(), "--tls-client-ca");
        }
        if (tls.key() != null) {
            options.put(tls.key(), "--tls-key");
            options.put(tls.certificate(), "--tls-cert");
        }
        return options.getOrDefault(file, "TLS file");
    }

    /** The TLS of the Pulsar and Kafka ports, or null for plaintext. */
    ReloadingSslContext portTls() {
        return portTls;
    }

    /** The admin port's TLS, or null for plain HTTP. */
    ReloadingSslContext adminTls() {
        return adminTls;
    }

    /** The TLS Sluice speaks to Pulsar brokers, or null for plaintext. */
    ReloadingSslContext pulsarUpstreamTls() {
        return config.pulsarUpstream() ? upstreamTls : null;
    }

    /** The TLS Sluice speaks to Kafka brokers, or null for plaintext. */
    ReloadingSslContext kafkaUpstreamTls() {
        return config.kafkaUpstream() ? upstreamTls : null;
    }

    /**
     * Sockets for Sluice's own blocking requests to the Kafka brokers: TLS ones trusting
     * {@code --upstream-tls-ca} with {@code --kafka-upstream-tls}, read from the CA file now.
     */
    SocketFactory kafkaMetadataSockets() {
        return config.kafkaUpstream()
                ? new UpstreamTlsFiles(config.upstreamCa()).blockingSockets()
                : SocketFactory.getDefault();
    }

    /** The admin token, or null when the admin API is open. */
    AdminToken adminToken() {
        return adminToken;
    }

    @Override
    public void close() {
        watch.close();
    }
}
