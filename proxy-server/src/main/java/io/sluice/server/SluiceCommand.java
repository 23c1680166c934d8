package io.sluice.server;

import io.sluice.admission.AdmissionSettings;
import io.sluice.pulsar.lookup.BrokerAllowList;
import io.sluice.pulsar.lookup.BrokerAllowList.BrokerAddress;
import io.sluice.pulsar.lookup.LookupMode;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Locale;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * The command line of {@code sluice.jar}. Every option can also come from the environment variable
 * {@code SLUICE_<NAME>} or the camelCase key of the {@code --config} YAML file (see
 * {@link ConfigSources}); flags win over environment, environment over file.
 */
@Command(name = "sluice", mixinStandardHelpOptions = true, versionProvider = SluiceVersion.class,
        sortOptions = false,
        description = "A throttling proxy for the Apache Pulsar binary protocol.")
final class SluiceCommand {

    @Option(names = "--upstream", paramLabel = "URL",
            description = "Broker service URL, pulsar://host:port, or pulsar+ssl://host:port to speak TLS to the brokers"
                    + " (required). Env SLUICE_UPSTREAM.")
    String upstream;

    @Option(names = "--listen", paramLabel = "HOST:PORT", defaultValue = "0.0.0.0:6650",
            description = "Pulsar protocol port for clients (default: ${DEFAULT-VALUE}).")
    String listen;

    @Option(names = "--admin", paramLabel = "HOST:PORT", defaultValue = "0.0.0.0:8080",
            description = "Admin REST API, /metrics and probes (default: ${DEFAULT-VALUE}).")
    String admin;

    @Option(names = "--limits-file", paramLabel = "PATH", defaultValue = "./sluice-limits.json",
            description = "Where limits persist; loaded at start, created if absent (default: ${DEFAULT-VALUE}).")
    String limitsFile;

    @Option(names = "--admin-token", paramLabel = "TOKEN",
            description = "When set, /api/v1/** requires 'Authorization: Bearer TOKEN'.")
    String adminToken;

    @Option(names = "--allowed-brokers", paramLabel = "REGEX",
            description = "Which host:port a client may name in proxy_to_broker_url (default: the upstream's only).")
    String allowedBrokers;

    @Option(names = "--config", paramLabel = "PATH",
            description = "YAML file with the same keys in camelCase (e.g. limitsFile).")
    String config;

    @Option(names = "--lookup-mode", paramLabel = "MODE", defaultValue = "rewrite",
            description = "passthrough (sidecar beside the broker) or rewrite (front proxy) (default: ${DEFAULT-VALUE}).")
    String lookupMode;

    @Option(names = "--metrics-max-topics", paramLabel = "N", defaultValue = "1000",
            description = "Topics with their own 'topic' metrics label besides limited ones (default: ${DEFAULT-VALUE}).")
    String metricsMaxTopics;

    @Option(names = "--drain-timeout", paramLabel = "SECONDS", defaultValue = "10",
            description = "On SIGTERM, how long held sends may take to reach the broker (default: ${DEFAULT-VALUE}).")
    String drainTimeout;

    @Option(names = "--handshake-timeout", paramLabel = "SECONDS", defaultValue = "30",
            description = "Closes a client connection that has not completed the Pulsar handshake (CONNECT to the"
                    + " broker's CONNECTED) this long after connecting (default: ${DEFAULT-VALUE}).")
    String handshakeTimeout;

    @Option(names = "--admin-idle-timeout", paramLabel = "SECONDS", defaultValue = "30",
            description = "Closes an admin connection that has not sent a complete request this long after opening"
                    + " or after its last answer (default: ${DEFAULT-VALUE}).")
    String adminIdleTimeout;

    @Option(names = "--tls-cert", paramLabel = "PATH",
            description = "PEM certificate chain (with --tls-key): the Pulsar port speaks pulsar+ssl, the admin port"
                    + " HTTPS; re-read when the file changes.")
    String tlsCert;

    @Option(names = "--tls-key", paramLabel = "PATH",
            description = "PEM private key of --tls-cert (PKCS#8, PKCS#1 or SEC1, not encrypted).")
    String tlsKey;

    @Option(names = "--tls-client-ca", paramLabel = "PATH",
            description = "Pulsar clients must present a certificate signed by this CA (PEM): mutual TLS.")
    String tlsClientCa;

    @Option(names = "--upstream-tls-ca", paramLabel = "PATH",
            description = "CA (PEM) the brokers' certificates must chain to when --upstream is pulsar+ssl://"
                    + " (default: the JDK's trust store).")
    String upstreamTlsCa;

    @Option(names = "--admin-token-file", paramLabel = "PATH",
            description = "File holding the admin token (a mounted Kubernetes Secret), re-read when it changes;"
                    + " instead of --admin-token.")
    String adminTokenFile;

    /** Validates and converts the options; throws IllegalArgumentException naming the bad one. */
    SluiceConfig toConfig(AdmissionSettings admission) {
        if (upstream == null || upstream.isBlank()) {
            throw new IllegalArgumentException("missing required option --upstream (or SLUICE_UPSTREAM)");
        }
        BrokerAddress upstreamAddress = option("--upstream", () -> BrokerAddress.parse(upstream));
        BrokerAllowList allowList = allowedBrokers == null || allowedBrokers.isBlank()
                ? BrokerAllowList.only(upstreamAddress)
                : option("--allowed-brokers", () -> {
                    try {
                        return new BrokerAllowList(Pattern.compile(allowedBrokers));
                    } catch (PatternSyntaxException e) {
                        throw new IllegalArgumentException("not a regular expression: " + e.getDescription());
                    }
                });
        LookupMode mode = option("--lookup-mode", () -> switch (lookupMode.toLowerCase(Locale.ROOT)) {
            case "passthrough" -> LookupMode.PASSTHROUGH;
            case "rewrite" -> LookupMode.REWRITE;
            default -> throw new IllegalArgumentException("expected passthrough or rewrite, got '" + lookupMode + "'");
        });
        int maxTopics = option("--metrics-max-topics", () -> positiveInt(metricsMaxTopics));
        Duration drain = option("--drain-timeout", () -> seconds(drainTimeout));
        Duration handshake = option("--handshake-timeout", () -> seconds(handshakeTimeout));
        Duration adminIdle = option("--admin-idle-timeout", () -> seconds(adminIdleTimeout));
        String token = adminToken == null || adminToken.isEmpty() ? null : adminToken;
        Path tokenFile = option("--admin-token-file", () -> path(adminTokenFile));
        if (token != null && tokenFile != null) {
            throw new IllegalArgumentException("invalid --admin-token-file: give --admin-token or --admin-token-file, not both");
        }
        return new SluiceConfig(upstreamAddress,
                option("--listen", () -> HostPort.parse(listen)),
                option("--admin", () -> HostPort.parse(admin)),
                option("--limits-file", () -> Path.of(limitsFile)),
                token, allowList, mode, maxTopics, drain, handshake, adminIdle, admission,
                tls(upstream.trim().startsWith("pulsar+ssl://")), tokenFile);
    }

    private TlsConfig tls(boolean pulsarUpstream) {
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
        if (upstreamCa != null && !pulsarUpstream) {
            throw new IllegalArgumentException("invalid --upstream-tls-ca: used only when --upstream is pulsar+ssl://");
        }
        return new TlsConfig(certificate, key, clientCa, pulsarUpstream, upstreamCa);
    }

    /** A file option: null when unset or empty. */
    private static Path path(String text) {
        return text == null || text.isBlank() ? null : Path.of(text.strip());
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
