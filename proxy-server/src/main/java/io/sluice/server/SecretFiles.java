package io.sluice.server;

import io.sluice.admin.http.AdminToken;
import io.sluice.frontend.FrontEndConfig;
import io.sluice.relay.ProxyStats;
import io.sluice.relay.tls.FileWatch;
import io.sluice.relay.tls.ReloadingSocketFactory;
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
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.LongAdder;
import java.util.stream.Collectors;

/**
 * What Sluice reads from certificate, key, CA and token files, and the watch that reads them again
 * when they change: the TLS contexts of the front ends' ports, the admin port and the upstreams,
 * and the admin tokens. A file that cannot be used at start stops Sluice; one that cannot be used
 * later keeps what is in force (see {@link ReloadingSslContext} and {@link AdminToken}).
 *
 * <p>The front ends' ports and the admin port present the same certificate from two contexts,
 * because only the front ends' ports ask for client certificates: Kubernetes probes and Prometheus
 * have none to give. Every upstream that speaks TLS trusts the same CA, so they share one context.
 * A failed reload counts once in {@link #tlsReloadFailures()} and in the counters of every front end
 * whose ports or upstream use the context.
 */
final class SecretFiles implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(SecretFiles.class);

    private final FileWatch watch;
    private final ReloadingSslContext portTls;
    private final ReloadingSslContext adminTls;
    private final ReloadingSslContext upstreamTls;
    private final SocketFactory upstreamSockets;
    private final AdminToken adminToken;
    private final AdminToken readToken;
    private final LongAdder reloadFailures;

    private SecretFiles(
            FileWatch watch,
            ReloadingSslContext portTls,
            ReloadingSslContext adminTls,
            ReloadingSslContext upstreamTls,
            SocketFactory upstreamSockets,
            AdminToken adminToken,
            AdminToken readToken,
            LongAdder reloadFailures) {
        this.watch = watch;
        this.portTls = portTls;
        this.adminTls = adminTls;
        this.upstreamTls = upstreamTls;
        this.upstreamSockets = upstreamSockets;
        this.adminToken = adminToken;
        this.readToken = readToken;
        this.reloadFailures = reloadFailures;
    }

    /**
     * Reads every file the configuration names and starts watching them.
     *
     * @param frontEndStats the counters of each of {@code config.frontEnds()}, in that order
     * @throws IllegalArgumentException naming the option whose file cannot be used
     */
    static SecretFiles open(SluiceConfig config, List<ProxyStats> frontEndStats, Duration checkInterval) {
        TlsConfig tls = config.tls();
        List<FrontEndConfig> frontEnds = config.frontEnds();
        List<FrontEndConfig> tlsUpstreams = new ArrayList<>();
        List<ProxyStats> tlsUpstreamStats = new ArrayList<>();
        for (int i = 0; i < frontEnds.size(); i++) {
            if (frontEnds.get(i).upstreamTls()) {
                tlsUpstreams.add(frontEnds.get(i));
                tlsUpstreamStats.add(frontEndStats.get(i));
            }
        }
        LongAdder failures = new LongAdder();
        ReloadingSslContext ports = null;
        ReloadingSslContext admin = null;
        ReloadingSslContext upstream = null;
        ReloadingSocketFactory upstreamSockets = null;
        AdminToken token;
        try {
            if (tls.serves()) {
                ports = ReloadingSslContext.load(
                        portsRole(frontEnds),
                        new ServerTlsFiles(tls.certificate(), tls.key(), tls.clientCa()),
                        countIn(failures, frontEndStats));
                admin = ReloadingSslContext.load(
                        "the admin port", new ServerTlsFiles(tls.certificate(), tls.key(), null), failures::increment);
            }
            if (!tlsUpstreams.isEmpty()) {
                UpstreamTlsFiles files =
                        new UpstreamTlsFiles(tls.upstreamCa(), tls.upstreamCertificate(), tls.upstreamKey());
                upstream = ReloadingSslContext.load(
                        tlsUpstreams.size() > 1
                                ? "the upstreams"
                                : "the " + tlsUpstreams.get(0).name() + " upstream",
                        files,
                        countIn(failures, tlsUpstreamStats));
                upstreamSockets = new ReloadingSocketFactory(files);
            }
            if (ports != null || upstream != null) {
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
        AdminToken readToken;
        Path readTokenFile = config.adminAccess().readTokenFile();
        try {
            readToken = readTokenFile == null ? null : AdminToken.fromFile(readTokenFile);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("invalid --admin-read-token-file: " + e.getMessage());
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
            ReloadingSslContext upstreamConnections = upstream;
            ReloadingSocketFactory blockingRequests = upstreamSockets;
            watch.watch(upstream.files(), () -> {
                if (upstreamConnections.reload()) {
                    blockingRequests.reload();
                }
            });
        }
        if (token != null && token.file() != null) {
            watch.watch(List.of(token.file()), token::reload);
        }
        if (readToken != null) {
            watch.watch(List.of(readToken.file()), readToken::reload);
        }
        return new SecretFiles(
                watch,
                ports,
                admin,
                upstream,
                upstreamSockets == null ? SocketFactory.getDefault() : upstreamSockets,
                token,
                readToken,
                failures);
    }

    /** Counts a failed reload once for the process and once for each front end using the context. */
    private static Runnable countIn(LongAdder failures, List<ProxyStats> users) {
        return () -> {
            failures.increment();
            users.forEach(ProxyStats::tlsReloadFailed);
        };
    }

    /** The front ends' ports, in log lines about their files: {@code the Pulsar and Kafka ports}. */
    private static String portsRole(List<FrontEndConfig> frontEnds) {
        if (frontEnds.size() == 1) {
            FrontEndConfig only = frontEnds.get(0);
            return "the " + only.name() + (only.severalPorts() ? " ports" : " port");
        }
        return "the " + frontEnds.stream().map(FrontEndConfig::name).collect(Collectors.joining(" and ")) + " ports";
    }

    private static String optionOf(Path file, TlsConfig tls) {
        Map<Path, String> options = new LinkedHashMap<>();
        if (tls.upstreamCa() != null) {
            options.put(tls.upstreamCa(), "--upstream-tls-ca");
        }
        if (tls.upstreamKey() != null) {
            options.put(tls.upstreamKey(), "--upstream-tls-key");
            options.put(tls.upstreamCertificate(), "--upstream-tls-cert");
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

    /** The TLS of every front end's ports, or null for plaintext. */
    ReloadingSslContext portTls() {
        return portTls;
    }

    /** The admin port's TLS, or null for plain HTTP. */
    ReloadingSslContext adminTls() {
        return adminTls;
    }

    /** The TLS Sluice speaks to the upstreams that speak TLS, or null when none does. */
    ReloadingSslContext upstreamTls() {
        return upstreamTls;
    }

    /**
     * Sockets for front ends' own blocking requests to an upstream that speaks TLS, trusting
     * {@code --upstream-tls-ca} and presenting {@code --upstream-tls-cert}, both followed as they
     * change; plain sockets when no upstream speaks TLS.
     */
    SocketFactory upstreamSockets() {
        return upstreamSockets;
    }

    /** Failed reloads of any TLS file since start, each counted once. */
    long tlsReloadFailures() {
        return reloadFailures.sum();
    }

    /** The admin token, or null when the admin API is open. */
    AdminToken adminToken() {
        return adminToken;
    }

    /** The read-only token, or null without one. */
    AdminToken readToken() {
        return readToken;
    }

    @Override
    public void close() {
        watch.close();
    }
}
