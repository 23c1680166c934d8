package io.sluice.server;

import io.sluice.admission.AdmissionSettings;
import io.sluice.kafka.routing.BrokerEndpoint;
import io.sluice.kafka.routing.RoutingMode;
import io.sluice.pulsar.lookup.BrokerAllowList;
import io.sluice.pulsar.lookup.BrokerAllowList.BrokerAddress;
import io.sluice.pulsar.lookup.LookupMode;
import io.sluice.redis.RedisLink;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * The command line of {@code sluice.jar}. Every option can also come from the environment variable
 * {@code SLUICE_<NAME>} or the camelCase key of the {@code --config} YAML file (see
 * {@link ConfigSources}); flags win over environment, environment over file.
 */
@Command(
        name = "sluice",
        mixinStandardHelpOptions = true,
        versionProvider = SluiceVersion.class,
        sortOptions = false,
        description = "A throttling proxy for Apache Pulsar and Apache Kafka.")
final class SluiceCommand {

    @Option(
            names = "--upstream",
            paramLabel = "URL",
            description = "Pulsar broker service URL, pulsar://host:port, or pulsar+ssl://host:port to speak TLS to the"
                    + " brokers; enables the Pulsar front end. At least one of --upstream and --kafka-upstream is"
                    + " required. Env SLUICE_UPSTREAM.")
    String upstream;

    @Option(
            names = "--listen",
            paramLabel = "HOST:PORT",
            defaultValue = "0.0.0.0:6650",
            description = "Pulsar protocol port for clients (default: ${DEFAULT-VALUE}).")
    String listen;

    @Option(
            names = "--admin",
            paramLabel = "HOST:PORT",
            defaultValue = "0.0.0.0:8080",
            description = "Admin REST API, /metrics and probes (default: ${DEFAULT-VALUE}).")
    String admin;

    @Option(
            names = "--limits-file",
            paramLabel = "PATH",
            defaultValue = "./sluice-limits.json",
            description = "Where limits persist; loaded at start, created if absent (default: ${DEFAULT-VALUE}).")
    String limitsFile;

    @Option(
            names = "--admin-token",
            paramLabel = "TOKEN",
            description = "When set, /api/v1/** requires 'Authorization: Bearer TOKEN'.")
    String adminToken;

    @Option(
            names = "--allowed-brokers",
            paramLabel = "REGEX",
            description = "Which host:port a client may name in proxy_to_broker_url (default: the upstream's only).")
    String allowedBrokers;

    @Option(
            names = "--config",
            paramLabel = "PATH",
            description = "YAML file with the same keys in camelCase (e.g. limitsFile).")
    String config;

    @Option(
            names = "--lookup-mode",
            paramLabel = "MODE",
            defaultValue = "rewrite",
            description =
                    "passthrough (sidecar beside the broker) or rewrite (front proxy) (default: ${DEFAULT-VALUE}).")
    String lookupMode;

    @Option(
            names = "--metrics-max-topics",
            paramLabel = "N",
            defaultValue = "1000",
            description =
                    "Topics with their own 'topic' metrics label besides limited ones (default: ${DEFAULT-VALUE}).")
    String metricsMaxTopics;

    @Option(
            names = "--drain-timeout",
            paramLabel = "SECONDS",
            defaultValue = "10",
            description = "On SIGTERM, how long held sends may take to reach the broker (default: ${DEFAULT-VALUE}).")
    String drainTimeout;

    @Option(
            names = "--handshake-timeout",
            paramLabel = "SECONDS",
            defaultValue = "30",
            description = "Closes a client connection that has not completed the Pulsar handshake (CONNECT to the"
                    + " broker's CONNECTED) this long after connecting (default: ${DEFAULT-VALUE}).")
    String handshakeTimeout;

    @Option(
            names = "--admin-idle-timeout",
            paramLabel = "SECONDS",
            defaultValue = "30",
            description = "Closes an admin connection that has not sent a complete request this long after opening"
                    + " or after its last answer (default: ${DEFAULT-VALUE}).")
    String adminIdleTimeout;

    @Option(
            names = "--tls-cert",
            paramLabel = "PATH",
            description = "PEM certificate chain (with --tls-key): the Pulsar port speaks pulsar+ssl, the Kafka ports"
                    + " SSL, the admin port HTTPS; re-read when the file changes.")
    String tlsCert;

    @Option(
            names = "--tls-key",
            paramLabel = "PATH",
            description = "PEM private key of --tls-cert (PKCS#8, PKCS#1 or SEC1, not encrypted).")
    String tlsKey;

    @Option(
            names = "--tls-client-ca",
            paramLabel = "PATH",
            description = "Pulsar and Kafka clients must present a certificate signed by this CA (PEM): mutual TLS.")
    String tlsClientCa;

    @Option(
            names = "--upstream-tls-ca",
            paramLabel = "PATH",
            description = "CA (PEM) the brokers' certificates must chain to when --upstream is pulsar+ssl:// or with"
                    + " --kafka-upstream-tls (default: the JDK's trust store).")
    String upstreamTlsCa;

    @Option(
            names = "--admin-token-file",
            paramLabel = "PATH",
            description = "File holding the admin token (a mounted Kubernetes Secret), re-read when it changes;"
                    + " instead of --admin-token.")
    String adminTokenFile;

    @Option(
            names = "--cluster-store",
            paramLabel = "URL",
            description =
                    "redis://host:port[/db] or rediss://host:port[/db] (Redis 6+ or Valkey): Sluices with the same"
                            + " --cluster-id share their limits through it (default: none, limits are per Sluice).")
    String clusterStore;

    @Option(
            names = "--cluster-store-password",
            paramLabel = "PASSWORD",
            description =
                    "The cluster store's password, overriding one in the URL; best set by its environment variable.")
    String clusterStorePassword;

    @Option(
            names = "--cluster-store-ca",
            paramLabel = "PATH",
            description = "PEM certificates to trust for rediss:// (default: the JVM's trust store).")
    String clusterStoreCa;

    @Option(
            names = "--cluster-id",
            paramLabel = "NAME",
            defaultValue = "sluice",
            description =
                    "Key prefix in the cluster store: Sluices with the same id share limits (default: ${DEFAULT-VALUE}).")
    String clusterId;

    @Option(
            names = "--cluster-sync-interval",
            paramLabel = "DURATION",
            defaultValue = "1s",
            description = "How often each Sluice reports its usage and takes its share (default: ${DEFAULT-VALUE}).")
    String clusterSyncInterval;

    @Option(
            names = "--limits-source",
            paramLabel = "SOURCE",
            defaultValue = "file",
            description = "file or store: where the limits document lives (default: ${DEFAULT-VALUE}).")
    String limitsSource;

    @Option(
            names = "--kafka-upstream",
            paramLabel = "HOST:PORT[,HOST:PORT]",
            description =
                    "Bootstrap servers of the Kafka cluster; enables the Kafka front end. Env SLUICE_KAFKA_UPSTREAM.")
    String kafkaUpstream;

    @Option(
            names = "--kafka-listen",
            paramLabel = "HOST:PORT",
            defaultValue = "0.0.0.0:9092",
            description = "Kafka bootstrap port for clients (default: ${DEFAULT-VALUE}).")
    String kafkaListen;

    @Option(
            names = "--kafka-advertised-host",
            paramLabel = "HOST",
            description = "Host Kafka clients are told to connect to for each broker (default: the --kafka-listen host,"
                    + " the machine's name if that is a wildcard).")
    String kafkaAdvertisedHost;

    @Option(
            names = "--kafka-node-port-base",
            paramLabel = "PORT",
            description = "Kafka broker node N is served on port PORT+N (default: the --kafka-listen port + 1).")
    String kafkaNodePortBase;

    @Option(
            names = "--kafka-address-mode",
            paramLabel = "MODE",
            defaultValue = "rewrite",
            description =
                    "rewrite (front proxy: broker addresses become Sluice's) or passthrough (sidecar beside one broker"
                            + " that advertises Sluice) (default: ${DEFAULT-VALUE}).")
    String kafkaAddressMode;

    @Option(
            names = "--kafka-upstream-tls",
            paramLabel = "BOOLEAN",
            arity = "0..1",
            defaultValue = "false",
            fallbackValue = "true",
            description = "Speak TLS to the Kafka brokers, verifying their certificates against --upstream-tls-ca"
                    + " (default: ${DEFAULT-VALUE}).")
    boolean kafkaUpstreamTls;

    /** Validates and converts the options; throws IllegalArgumentException naming the bad one. */
    SluiceConfig toConfig(AdmissionSettings admission) {
        boolean pulsar = upstream != null && !upstream.isBlank();
        boolean kafka = kafkaUpstream != null && !kafkaUpstream.isBlank();
        if (!pulsar && !kafka) {
            throw new IllegalArgumentException("missing --upstream (SLUICE_UPSTREAM) or --kafka-upstream"
                    + " (SLUICE_KAFKA_UPSTREAM): at least one front end is required");
        }
        BrokerAddress upstreamAddress = pulsar ? option("--upstream", () -> BrokerAddress.parse(upstream)) : null;
        BrokerAllowList allowList = !pulsar
                ? null
                : allowedBrokers == null || allowedBrokers.isBlank()
                        ? BrokerAllowList.only(upstreamAddress)
                        : option("--allowed-brokers", () -> {
                            try {
                                return new BrokerAllowList(Pattern.compile(allowedBrokers));
                            } catch (PatternSyntaxException e) {
                                throw new IllegalArgumentException("not a regular expression: " + e.getDescription());
                            }
                        });
        LookupMode mode = option(
                "--lookup-mode", () -> passthroughOrRewrite(lookupMode, LookupMode.PASSTHROUGH, LookupMode.REWRITE));
        int maxTopics = option("--metrics-max-topics", () -> positiveInt(metricsMaxTopics));
        Duration drain = option("--drain-timeout", () -> seconds(drainTimeout));
        Duration handshake = option("--handshake-timeout", () -> seconds(handshakeTimeout));
        Duration adminIdle = option("--admin-idle-timeout", () -> seconds(adminIdleTimeout));
        String token = adminToken == null || adminToken.isEmpty() ? null : adminToken;
        Path tokenFile = option("--admin-token-file", () -> path(adminTokenFile));
        if (token != null && tokenFile != null) {
            throw new IllegalArgumentException(
                    "invalid --admin-token-file: give --admin-token or --admin-token-file, not both");
        }
        return new SluiceConfig(
                upstreamAddress,
                option("--listen", () -> HostPort.parse(listen)),
                option("--admin", () -> HostPort.parse(admin)),
                option("--limits-file", () -> Path.of(limitsFile)),
                token,
                allowList,
                mode,
                maxTopics,
                drain,
                handshake,
                adminIdle,
                admission,
                cluster(),
                kafka ? kafkaConfig() : null,
                tls(pulsar && upstream.trim().startsWith("pulsar+ssl://"), kafka),
                tokenFile);
    }

    private TlsConfig tls(boolean pulsarUpstream, boolean kafka) {
        Path certificate = option("--tls-cert", () -> path(tlsCert));
        Path key = option("--tls-key", () -> path(tlsKey));
        Path clientCa = option("--tls-client-ca", () -> path(tlsClientCa));
        Path upstreamCa = option("--upstream-tls-ca", () -> path(upstreamTlsCa));
        if (certificate != null && key == null) {
            throw new IllegalArgumentException("invalid --tls-cert: needs --tls-key, the certificate's private key");
        }
        if (key != null && certificate == null) {
            throw new IllegalArgumentException("invalid --tls-key: needs --tls-cert, the certificate it belongs to");
        }
        if (clientCa != null && certificate == null) {
            throw new IllegalArgumentException("invalid --tls-client-ca: needs --tls-cert and --tls-key");
        }
        if (kafkaUpstreamTls && !kafka) {
            throw new IllegalArgumentException("invalid --kafka-upstream-tls: needs --kafka-upstream");
        }
        if (upstreamCa != null && !pulsarUpstream && !kafkaUpstreamTls) {
            throw new IllegalArgumentException("invalid --upstream-tls-ca: used only when --upstream is pulsar+ssl://"
                    + " or with --kafka-upstream-tls");
        }
        return new TlsConfig(certificate, key, clientCa, pulsarUpstream, upstreamCa, kafkaUpstreamTls);
    }

    /** A file option: null when unset or empty. */
    private static Path path(String text) {
        return text == null || text.isBlank() ? null : Path.of(text.strip());
    }

    private ClusterSettings cluster() {
        String store = blankToNull(clusterStore);
        if (store != null) {
            option("--cluster-store", () -> RedisLink.parse(store));
        }
        String ca = blankToNull(clusterStoreCa);
        return new ClusterSettings(
                store,
                blankToNull(clusterStorePassword),
                ca == null ? null : option("--cluster-store-ca", () -> Path.of(ca)),
                clusterId.trim(),
                option("--cluster-sync-interval", () -> ClusterSettings.duration(clusterSyncInterval)),
                option("--limits-source", () -> ClusterSettings.LimitsSource.parse(limitsSource)));
    }

    private static String blankToNull(String text) {
        return text == null || text.isBlank() ? null : text.trim();
    }

    private KafkaConfig kafkaConfig() {
        List<BrokerEndpoint> servers = option("--kafka-upstream", () -> BrokerEndpoint.parseList(kafkaUpstream));
        HostPort listenOn = option("--kafka-listen", () -> HostPort.parse(kafkaListen));
        RoutingMode mode = option(
                "--kafka-address-mode",
                () -> passthroughOrRewrite(kafkaAddressMode, RoutingMode.PASSTHROUGH, RoutingMode.REWRITE));
        String host = kafkaAdvertisedHost != null && !kafkaAdvertisedHost.isBlank()
                ? kafkaAdvertisedHost.trim()
                : option("--kafka-advertised-host", () -> advertisedHostOf(listenOn));
        int base = option("--kafka-node-port-base", () -> {
            if (kafkaNodePortBase != null && !kafkaNodePortBase.isBlank()) {
                return positiveInt(kafkaNodePortBase);
            }
            if (listenOn.port() == 0 && mode == RoutingMode.REWRITE) {
                throw new IllegalArgumentException("must be set when --kafka-listen picks a free port (port 0)");
            }
            return listenOn.port() + 1;
        });
        return option("--kafka-node-port-base", () -> new KafkaConfig(servers, listenOn, host, base, mode));
    }

    /** The listen host, or the machine's name when that is a wildcard address. */
    private static String advertisedHostOf(HostPort listenOn) {
        String host = listenOn.host();
        if (!host.equals("0.0.0.0") && !host.equals("::") && !host.equals("0:0:0:0:0:0:0:0")) {
            return host;
        }
        try {
            return InetAddress.getLocalHost().getHostName();
        } catch (UnknownHostException e) {
            throw new IllegalArgumentException("the machine's name is unknown (" + e.getMessage() + "); set it");
        }
    }

    /** A front end's mode, as both front ends spell theirs. */
    private static <M> M passthroughOrRewrite(String text, M passthrough, M rewrite) {
        return switch (text.toLowerCase(Locale.ROOT)) {
            case "passthrough" -> passthrough;
            case "rewrite" -> rewrite;
            default -> throw new IllegalArgumentException("expected passthrough or rewrite, got '" + text + "'");
        };
    }

    private static Duration seconds(String text) {
        return Duration.ofSeconds(positiveInt(text));
    }

    private static int positiveInt(String text) {
        try {
            int value = Integer.parseInt(text.trim());
            if (value <= 0) {
                throw new IllegalArgumentException("must be a positive integer, got " + text);
            }
            return value;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("must be a positive integer, got '" + text + "'");
        }
    }

    private interface Parse<T> {
        T get();
    }

    private static <T> T option(String name, Parse<T> parse) {
        try {
            return parse.get();
        } catch (RuntimeException e) {
            throw new IllegalArgumentException("invalid " + name + ": " + e.getMessage());
        }
    }
}
