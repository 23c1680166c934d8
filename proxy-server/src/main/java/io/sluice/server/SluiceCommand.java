package io.sluice.server;

import io.netty.util.NetUtil;
import io.sluice.admission.AdmissionSettings;
import io.sluice.frontend.FrontEndConfig;
import io.sluice.frontend.FrontEndFactory;
import io.sluice.frontend.FrontEndOption;
import io.sluice.frontend.HostPort;
import io.sluice.frontend.OptionValues;
import io.sluice.redis.RedisLink;
import io.sluice.relay.proxyprotocol.ProxyProtocol;
import io.sluice.relay.proxyprotocol.TrustedPeers;
import io.sluice.server.logging.LogFormat;
import io.sluice.server.logging.LogLevels;
import io.sluice.server.logging.LogSettings;
import picocli.CommandLine.Command;
import picocli.CommandLine.IModelTransformer;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.stream.Collectors;

import static io.sluice.frontend.OptionValues.parse;

/**
 * The command line of {@code sluice.jar}: Sluice's own options, declared here, and every installed
 * front end's ({@link FrontEndFactory#options()}), added by {@link FrontEndOptions}. Every option
 * can also come from the environment variable {@code SLUICE_<NAME>} or the camelCase key of the
 * {@code --config} YAML file (see {@link ConfigSources}); flags win over environment, environment
 * over file. {@code order} places each option in {@code --help}; front ends' options take their
 * places among these ({@link FrontEndOption#helpOrder()}).
 */
@Command(
        name = "sluice",
        versionProvider = SluiceVersion.class,
        sortOptions = false,
        modelTransformer = SluiceCommand.FrontEndOptions.class,
        description = "A throttling proxy for Apache Pulsar and Apache Kafka.")
final class SluiceCommand {

    private final List<FrontEndFactory> frontEnds = FrontEndFactory.installed();

    @Spec
    CommandSpec spec;

    @Option(
            names = "--admin",
            order = 30,
            paramLabel = "HOST:PORT",
            defaultValue = "0.0.0.0:8080",
            description = "Admin REST API, /metrics and probes (default: ${DEFAULT-VALUE}).")
    String admin;

    @Option(
            names = "--admin-insecure",
            order = 35,
            paramLabel = "BOOLEAN",
            arity = "0..1",
            defaultValue = "false",
            fallbackValue = "true",
            description = "Serve the admin API on an address other than loopback without a token: anyone who reaches"
                    + " it may change every limit. Logged as a warning at every start (default: ${DEFAULT-VALUE}).")
    boolean adminInsecure;

    @Option(
            names = "--limits-file",
            order = 40,
            paramLabel = "PATH",
            defaultValue = "./sluice-limits.json",
            description = "Where limits persist; loaded at start, created if absent (default: ${DEFAULT-VALUE}).")
    String limitsFile;

    @Option(
            names = "--admin-token",
            order = 50,
            paramLabel = "TOKEN",
            description = "When set, /api/v1/** requires 'Authorization: Bearer TOKEN'.")
    String adminToken;

    @Option(
            names = "--config",
            order = 70,
            paramLabel = "PATH",
            description = "YAML file with the same keys in camelCase (e.g. limitsFile).")
    String config;

    @Option(
            names = "--metrics-max-topics",
            order = 90,
            paramLabel = "N",
            defaultValue = "1000",
            description =
                    "Topics with their own 'topic' metrics label besides limited ones (default: ${DEFAULT-VALUE}).")
    String metricsMaxTopics;

    @Option(
            names = "--metrics-max-identities",
            order = 91,
            paramLabel = "N",
            defaultValue = "100",
            description = "Principals and roles with their own label in sluice_throttle_events_total, the most"
                    + " often throttled first; the others count as _other (default: ${DEFAULT-VALUE}).")
    String metricsMaxIdentities;

    @Option(
            names = "--max-tracked-topics",
            order = 91,
            paramLabel = "N",
            defaultValue = "100000",
            description = "Topics whose figures and throttle counters Sluice keeps at most, the least used recently"
                    + " dropped first; bounds /api/v1/topics (default: ${DEFAULT-VALUE}).")
    String maxTrackedTopics;

    @Option(
            names = "--max-tracked-identities",
            order = 93,
            paramLabel = "N",
            defaultValue = "100000",
            description = "Quota buckets Sluice keeps at most for client ids, principals, roles and addresses under"
                    + " \"*\" entries, the least used recently dropped first (default: ${DEFAULT-VALUE}).")
    String maxTrackedIdentities;

    @Option(
            names = "--drain-timeout",
            order = 100,
            paramLabel = "SECONDS",
            defaultValue = "10",
            description = "On SIGTERM, how long held sends may take to reach the broker (default: ${DEFAULT-VALUE}).")
    String drainTimeout;

    @Option(
            names = "--handshake-timeout",
            order = 110,
            paramLabel = "SECONDS",
            defaultValue = "30",
            description = "Closes a client connection that has not completed its handshake this long after connecting:"
                    + " the broker's CONNECTED (Pulsar), its first response (Kafka) (default: ${DEFAULT-VALUE}).")
    String handshakeTimeout;

    @Option(
            names = "--admin-idle-timeout",
            order = 120,
            paramLabel = "SECONDS",
            defaultValue = "30",
            description = "Closes an admin connection that has not sent a complete request this long after opening"
                    + " or after its last answer (default: ${DEFAULT-VALUE}).")
    String adminIdleTimeout;

    @Option(
            names = "--admin-max-connections",
            order = 125,
            paramLabel = "N",
            defaultValue = "64",
            description = "Admin connections open at once; past them a new one may only ask /healthz or /readyz"
                    + " (default: ${DEFAULT-VALUE}).")
    String adminMaxConnections;

    @Option(
            names = "--tls-cert",
            order = 130,
            paramLabel = "PATH",
            description = "PEM certificate chain (with --tls-key): the Pulsar port speaks pulsar+ssl, the Kafka ports"
                    + " SSL, the admin port HTTPS; re-read when the file changes.")
    String tlsCert;

    @Option(
            names = "--tls-key",
            order = 140,
            paramLabel = "PATH",
            description = "PEM private key of --tls-cert (PKCS#8, PKCS#1 or SEC1, not encrypted).")
    String tlsKey;

    @Option(
            names = "--tls-client-ca",
            order = 150,
            paramLabel = "PATH",
            description = "Pulsar and Kafka clients must present a certificate signed by this CA (PEM): mutual TLS.")
    String tlsClientCa;

    @Option(
            names = "--upstream-tls-ca",
            order = 160,
            paramLabel = "PATH",
            description = "CA (PEM) the brokers' certificates must chain to when --upstream is pulsar+ssl:// or with"
                    + " --kafka-upstream-tls (default: the JDK's trust store).")
    String upstreamTlsCa;

    @Option(
            names = "--upstream-tls-cert",
            order = 161,
            paramLabel = "PATH",
            description = "PEM certificate chain Sluice presents to brokers whose TLS listener requires a client"
                    + " certificate; re-read when it changes.")
    String upstreamTlsCert;

    @Option(
            names = "--upstream-tls-key",
            order = 162,
            paramLabel = "PATH",
            description = "PEM private key of --upstream-tls-cert (PKCS#8, PKCS#1 or SEC1, not encrypted).")
    String upstreamTlsKey;

    @Option(
            names = "--admin-token-file",
            order = 170,
            paramLabel = "PATH",
            description = "File holding the admin token (a mounted Kubernetes Secret), re-read when it changes;"
                    + " instead of --admin-token.")
    String adminTokenFile;

    @Option(
            names = "--admin-read-token-file",
            order = 175,
            paramLabel = "PATH",
            description = "File holding a second, read-only token: it may GET under /api/v1 and change nothing;"
                    + " re-read when it changes. Needs an admin token.")
    String adminReadTokenFile;

    @Option(
            names = "--cluster-store",
            order = 180,
            paramLabel = "URL",
            description =
                    "redis://host:port[/db] or rediss://host:port[/db] (Redis 6+ or Valkey): Sluices with the same"
                            + " --cluster-id share their limits through it (default: none, limits are per Sluice).")
    String clusterStore;

    @Option(
            names = "--cluster-store-password",
            order = 190,
            paramLabel = "PASSWORD",
            description =
                    "The cluster store's password, overriding one in the URL; best set by its environment variable.")
    String clusterStorePassword;

    @Option(
            names = "--cluster-store-ca",
            order = 200,
            paramLabel = "PATH",
            description = "PEM certificates to trust for rediss:// (default: the JVM's trust store).")
    String clusterStoreCa;

    @Option(
            names = "--cluster-id",
            order = 210,
            paramLabel = "NAME",
            defaultValue = "sluice",
            description =
                    "Key prefix in the cluster store: Sluices with the same id share limits (default: ${DEFAULT-VALUE}).")
    String clusterId;

    @Option(
            names = "--cluster-sync-interval",
            order = 220,
            paramLabel = "DURATION",
            defaultValue = "1s",
            description = "How often each Sluice reports its usage and takes its share (default: ${DEFAULT-VALUE}).")
    String clusterSyncInterval;

    @Option(
            names = "--limits-source",
            order = 230,
            paramLabel = "SOURCE",
            defaultValue = "file",
            description = "file or store: where the limits document lives (default: ${DEFAULT-VALUE}).")
    String limitsSource;

    @Option(
            names = "--max-connections",
            order = 240,
            paramLabel = "N",
            defaultValue = "10000",
            description = "Client connections each front end keeps open at once; past them a new one is closed at"
                    + " once and counted (default: ${DEFAULT-VALUE}).")
    String maxConnections;

    @Option(
            names = "--max-buffered-bytes",
            order = 245,
            paramLabel = "BYTES",
            description = "Bytes of frames clients have not finished sending that Sluice holds, all connections"
                    + " together; past them it stops reading the connections with the largest until the total"
                    + " falls, e.g. 64MiB (default: a quarter of the direct memory).")
    String maxBufferedBytes;

    @Option(
            names = "--frame-timeout",
            order = 246,
            paramLabel = "SECONDS",
            defaultValue = "30",
            description = "Closes a client connection whose frame is still incomplete this long after its first"
                    + " bytes came (default: ${DEFAULT-VALUE}).")
    String frameTimeout;

    @Option(
            names = "--proxy-protocol",
            order = 248,
            paramLabel = "MODE",
            defaultValue = "off",
            description = "off, v1, v2 or optional: whether connections to every client port start with a PROXY"
                    + " protocol header (HAProxy's v1 text or v2 binary) naming the client behind a load balancer;"
                    + " with v1 or v2 one without it"
                    + " is closed, with optional it keeps its socket's address (default: ${DEFAULT-VALUE}).")
    String proxyProtocol;

    @Option(
            names = "--proxy-protocol-from",
            order = 249,
            paramLabel = "CIDR,...",
            defaultValue = "127.0.0.0/8,::1/128",
            description = "The peers (load balancers) whose PROXY protocol header is believed; anyone else's is"
                    + " refused and the connection closed (default: ${DEFAULT-VALUE}).")
    String proxyProtocolFrom;

    @Option(
            names = "--dns-servers",
            order = 247,
            paramLabel = "IP[:PORT],...",
            description = "DNS servers Sluice asks for the addresses of brokers and the cluster store, in order"
                    + " (default: the system's, from /etc/resolv.conf).")
    String dnsServers;

    @Option(
            names = "--log-format",
            order = 250,
            paramLabel = "FORMAT",
            defaultValue = "text",
            description = "text, or json for one JSON object a line (time, level, logger, thread, message,"
                    + " fields), as log collectors take them (default: ${DEFAULT-VALUE}).")
    String logFormat;

    @Option(
            names = "--log-levels",
            order = 251,
            paramLabel = "LEVEL,LOGGER=LEVEL,...",
            defaultValue = "info,io.netty=warn",
            description = "What is logged: a level for every logger, and levels for loggers (or packages) by"
                    + " name (default: ${DEFAULT-VALUE}).")
    String logLevels;

    @Option(
            names = {"-h", "--help"},
            usageHelp = true,
            order = 10_000,
            description = "Show this help message and exit.")
    boolean helpRequested;

    @Option(
            names = {"-V", "--version"},
            versionHelp = true,
            order = 10_001,
            description = "Print version information and exit.")
    boolean versionRequested;

    /** Validates and converts the options; throws IllegalArgumentException naming the bad one. */
    SluiceConfig toConfig(AdmissionSettings admission) {
        OptionValues values = new SpecValues(spec);
        if (frontEnds.stream().noneMatch(frontEnd -> values.isSet(frontEnd.enablingOption()))) {
            throw new IllegalArgumentException("missing "
                    + frontEnds.stream()
                            .map(frontEnd -> frontEnd.enablingOption() + " ("
                                    + ConfigSources.envName(frontEnd.enablingOption()) + ")")
                            .collect(Collectors.joining(" or "))
                    + ": at least one front end is required");
        }
        List<FrontEndConfig> configured = new ArrayList<>();
        for (FrontEndFactory frontEnd : frontEnds) {
            FrontEndConfig section = frontEnd.configure(values);
            if (section != null) {
                configured.add(section);
            }
        }
        int maxTopics = parse("--metrics-max-topics", () -> OptionValues.positiveInt(metricsMaxTopics));
        Duration drain = parse("--drain-timeout", () -> seconds(drainTimeout));
        Duration handshake = parse("--handshake-timeout", () -> seconds(handshakeTimeout));
        Duration adminIdle = parse("--admin-idle-timeout", () -> seconds(adminIdleTimeout));
        String token = adminToken == null || adminToken.isEmpty() ? null : adminToken;
        Path tokenFile = parse("--admin-token-file", () -> path(adminTokenFile));
        if (token != null && tokenFile != null) {
            throw new IllegalArgumentException(
                    "invalid --admin-token-file: give --admin-token or --admin-token-file, not both");
        }
        AdminAccess access = new AdminAccess(
                adminInsecure,
                parse("--admin-read-token-file", () -> path(adminReadTokenFile)),
                parse("--admin-max-connections", () -> OptionValues.positiveInt(adminMaxConnections)));
        ConnectionBounds bounds = new ConnectionBounds(
                parse("--max-connections", () -> OptionValues.positiveInt(maxConnections)),
                parse("--max-tracked-topics", () -> OptionValues.positiveInt(maxTrackedTopics)),
                maxBufferedBytes == null || maxBufferedBytes.isBlank()
                        ? ConnectionBounds.defaultMaxBufferedBytes()
                        : parse("--max-buffered-bytes", () -> OptionValues.positiveBytes(maxBufferedBytes)),
                parse("--frame-timeout", () -> seconds(frameTimeout)),
                parse("--max-tracked-identities", () -> OptionValues.positiveInt(maxTrackedIdentities)));
        return new SluiceConfig(
                configured,
                parse("--admin", () -> HostPort.parse(admin)),
                parse("--limits-file", () -> Path.of(limitsFile)),
                token,
                maxTopics,
                parse("--metrics-max-identities", () -> OptionValues.positiveInt(metricsMaxIdentities)),
                drain,
                handshake,
                adminIdle,
                admission,
                cluster(),
                tls(configured),
                tokenFile,
                access,
                bounds,
                parse("--dns-servers", () -> nameServers(dnsServers)),
                new ProxyProtocol(
                        parse("--proxy-protocol", () -> ProxyProtocol.Mode.parse(proxyProtocol)),
                        parse("--proxy-protocol-from", () -> TrustedPeers.parse(proxyProtocolFrom))),
                new LogSettings(
                        parse("--log-format", () -> LogFormat.parse(logFormat)),
                        parse("--log-levels", () -> LogLevels.parse(logLevels))));
    }

    private TlsConfig tls(List<FrontEndConfig> configured) {
        Path certificate = parse("--tls-cert", () -> path(tlsCert));
        Path key = parse("--tls-key", () -> path(tlsKey));
        Path clientCa = parse("--tls-client-ca", () -> path(tlsClientCa));
        Path upstreamCa = parse("--upstream-tls-ca", () -> path(upstreamTlsCa));
        if (certificate != null && key == null) {
            throw new IllegalArgumentException("invalid --tls-cert: needs --tls-key, the certificate's private key");
        }
        if (key != null && certificate == null) {
            throw new IllegalArgumentException("invalid --tls-key: needs --tls-cert, the certificate it belongs to");
        }
        if (clientCa != null && certificate == null) {
            throw new IllegalArgumentException("invalid --tls-client-ca: needs --tls-cert and --tls-key");
        }
        Path upstreamCertificate = parse("--upstream-tls-cert", () -> path(upstreamTlsCert));
        Path upstreamKey = parse("--upstream-tls-key", () -> path(upstreamTlsKey));
        if (upstreamCertificate != null && upstreamKey == null) {
            throw new IllegalArgumentException(
                    "invalid --upstream-tls-cert: needs --upstream-tls-key, the certificate's private key");
        }
        if (upstreamKey != null && upstreamCertificate == null) {
            throw new IllegalArgumentException(
                    "invalid --upstream-tls-key: needs --upstream-tls-cert, the certificate it belongs to");
        }
        boolean tlsUpstream = configured.stream().anyMatch(FrontEndConfig::upstreamTls);
        if (upstreamCa != null && !tlsUpstream) {
            throw new IllegalArgumentException("invalid --upstream-tls-ca: used only when " + upstreamTlsConditions());
        }
        if (upstreamCertificate != null && !tlsUpstream) {
            throw new IllegalArgumentException(
                    "invalid --upstream-tls-cert: used only when " + upstreamTlsConditions());
        }
        return new TlsConfig(certificate, key, clientCa, upstreamCa, upstreamCertificate, upstreamKey);
    }

    /** When Sluice speaks TLS to an upstream, in words: {@code --upstream is pulsar+ssl:// or --kafka-upstream-tls}. */
    private String upstreamTlsConditions() {
        return frontEnds.stream()
                .map(FrontEndFactory::upstreamTlsCondition)
                .filter(Objects::nonNull)
                .collect(Collectors.joining(" or "));
    }

    /** A file option: null when unset or empty. */
    private static Path path(String text) {
        return text == null || text.isBlank() ? null : Path.of(text.strip());
    }

    private ClusterSettings cluster() {
        String store = blankToNull(clusterStore);
        if (store != null) {
            parse("--cluster-store", () -> RedisLink.parse(store));
        }
        String ca = blankToNull(clusterStoreCa);
        return new ClusterSettings(
                store,
                blankToNull(clusterStorePassword),
                ca == null ? null : parse("--cluster-store-ca", () -> Path.of(ca)),
                clusterId.trim(),
                parse("--cluster-sync-interval", () -> ClusterSettings.duration(clusterSyncInterval)),
                parse("--limits-source", () -> ClusterSettings.LimitsSource.parse(limitsSource)));
    }

    private static String blankToNull(String text) {
        return text == null || text.isBlank() ? null : text.trim();
    }

    /** {@code IP[:PORT],...}, port 53 when left out; none when blank. Addresses only, so nothing is looked up. */
    static List<InetSocketAddress> nameServers(String text) {
        if (text == null || text.isBlank()) {
            return List.of();
        }
        List<InetSocketAddress> servers = new ArrayList<>();
        for (String server : text.split(",")) {
            String entry = server.strip();
            String host = entry;
            int port = 53;
            int colon = entry.lastIndexOf(':');
            if (entry.startsWith("[")) {
                int close = entry.indexOf(']');
                host = close < 0 ? "" : entry.substring(1, close);
                port = close >= 0 && close + 1 < entry.length() && entry.charAt(close + 1) == ':'
                        ? port(entry.substring(close + 2), entry)
                        : 53;
            } else if (colon >= 0 && colon == entry.indexOf(':')) {
                host = entry.substring(0, colon);
                port = port(entry.substring(colon + 1), entry);
            }
            InetAddress address = NetUtil.createInetAddressFromIpAddressString(host);
            if (address == null) {
                throw new IllegalArgumentException(
                        "expected IP[:PORT],... (addresses, not names), got '" + entry + "'");
            }
            servers.add(new InetSocketAddress(address, port));
        }
        return servers;
    }

    private static int port(String text, String entry) {
        try {
            int port = Integer.parseInt(text);
            if (port > 0 && port <= 65535) {
                return port;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new IllegalArgumentException("expected a port of 1 to 65535 in '" + entry + "'");
    }

    private static Duration seconds(String text) {
        return Duration.ofSeconds(OptionValues.positiveInt(text));
    }

    /** Adds every installed front end's options to the command, each where its help order puts it. */
    static final class FrontEndOptions implements IModelTransformer {

        @Override
        public CommandSpec transform(CommandSpec command) {
            for (FrontEndFactory frontEnd : FrontEndFactory.installed()) {
                for (FrontEndOption option : frontEnd.options()) {
                    OptionSpec.Builder spec = OptionSpec.builder(option.name())
                            .paramLabel(option.paramLabel())
                            .description(option.description())
                            .order(option.helpOrder());
                    if (option.flag()) {
                        spec.type(boolean.class)
                                .arity("0..1")
                                .defaultValue("false")
                                .fallbackValue("true");
                    } else {
                        spec.type(String.class).defaultValue(option.defaultValue());
                    }
                    command.addOption(spec.build());
                }
            }
            return command;
        }
    }

    /** The front ends' option values, as picocli parsed them into the command's spec. */
    private record SpecValues(CommandSpec spec) implements OptionValues {

        @Override
        public String value(String option) {
            return spec.findOption(option).getValue();
        }

        @Override
        public boolean flag(String option) {
            Boolean value = spec.findOption(option).getValue();
            return value != null && value;
        }
    }
}
