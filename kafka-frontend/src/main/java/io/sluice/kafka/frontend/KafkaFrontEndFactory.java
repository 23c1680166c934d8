package io.sluice.kafka.frontend;

import io.sluice.frontend.FrontEndConfig;
import io.sluice.frontend.FrontEndFactory;
import io.sluice.frontend.FrontEndOption;
import io.sluice.frontend.HostPort;
import io.sluice.frontend.OptionValues;
import io.sluice.kafka.routing.BrokerEndpoint;
import io.sluice.kafka.routing.LookupLogin;
import io.sluice.kafka.routing.RoutingMode;
import io.sluice.kafka.scopes.KafkaScopes;
import io.sluice.kafka.scopes.SslPrincipalMapping;
import io.sluice.limits.ProtocolScopes;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * The Kafka front end's registration: {@code --kafka-upstream} starts it (docs/REFERENCE.md,
 * "Kafka front end"), {@code --kafka-upstream-tls} speaks TLS to the brokers.
 */
public final class KafkaFrontEndFactory implements FrontEndFactory {

    private static final String UPSTREAM = "--kafka-upstream";
    private static final String LISTEN = "--kafka-listen";
    private static final String ADVERTISED_HOST = "--kafka-advertised-host";
    private static final String NODE_PORT_BASE = "--kafka-node-port-base";
    private static final String ADDRESS_MODE = "--kafka-address-mode";
    private static final String UPSTREAM_TLS = "--kafka-upstream-tls";
    private static final String LOOKUP_MECHANISM = "--kafka-lookup-sasl-mechanism";
    private static final String LOOKUP_USERNAME = "--kafka-lookup-sasl-username";
    private static final String LOOKUP_PASSWORD_FILE = "--kafka-lookup-sasl-password-file";
    private static final String SSL_PRINCIPAL_MAPPING_RULES = "--kafka-ssl-principal-mapping-rules";
    private static final String MAX_TOPICS_PER_CONNECTION = "--max-topics-per-connection";
    /** The default of {@code --max-topics-per-connection}: a literal, as the deploy tests read defaults from this file. */
    static final String DEFAULT_MAX_TOPICS_PER_CONNECTION = "10000";

    @Override
    public List<FrontEndOption> options() {
        return List.of(
                FrontEndOption.text(
                        300,
                        UPSTREAM,
                        "HOST:PORT[,HOST:PORT]",
                        null,
                        "Bootstrap servers of the Kafka cluster; enables the Kafka front end. Env SLUICE_KAFKA_UPSTREAM."),
                FrontEndOption.text(
                        310,
                        LISTEN,
                        "HOST:PORT",
                        "0.0.0.0:9092",
                        "Kafka bootstrap port for clients (default: ${DEFAULT-VALUE})."),
                FrontEndOption.text(
                        320,
                        ADVERTISED_HOST,
                        "HOST",
                        null,
                        "Host Kafka clients are told to connect to for each broker (default: the --kafka-listen host,"
                                + " the machine's name if that is a wildcard)."),
                FrontEndOption.text(
                        330,
                        NODE_PORT_BASE,
                        "PORT",
                        null,
                        "Kafka broker node N is served on port PORT+N (default: the --kafka-listen port + 1)."),
                FrontEndOption.text(
                        340,
                        ADDRESS_MODE,
                        "MODE",
                        "rewrite",
                        "rewrite (front proxy: broker addresses become Sluice's) or passthrough (sidecar beside one broker"
                                + " that advertises Sluice) (default: ${DEFAULT-VALUE})."),
                FrontEndOption.flag(
                        350,
                        UPSTREAM_TLS,
                        "Speak TLS to the Kafka brokers, verifying their certificates against --upstream-tls-ca"
                                + " (default: ${DEFAULT-VALUE})."),
                FrontEndOption.text(
                        360,
                        LOOKUP_MECHANISM,
                        "MECHANISM",
                        null,
                        "SASL mechanism of Sluice's own requests to the Kafka cluster (topic id lookups, the node list):"
                                + " PLAIN, SCRAM-SHA-256 or SCRAM-SHA-512; for brokers that require SASL."
                                + " Env SLUICE_KAFKA_LOOKUP_SASL_MECHANISM."),
                FrontEndOption.text(
                        370,
                        LOOKUP_USERNAME,
                        "NAME",
                        null,
                        "User Sluice's own requests to the Kafka cluster log in as. Env SLUICE_KAFKA_LOOKUP_SASL_USERNAME."),
                FrontEndOption.text(
                        380,
                        LOOKUP_PASSWORD_FILE,
                        "FILE",
                        null,
                        "File holding that user's password, read at each login."
                                + " Env SLUICE_KAFKA_LOOKUP_SASL_PASSWORD_FILE."),
                FrontEndOption.text(
                        390,
                        SSL_PRINCIPAL_MAPPING_RULES,
                        "RULES",
                        "DEFAULT",
                        "How a client certificate's subject (RFC 2253, with --tls-client-ca) names the"
                                + " connection's principal for limits by principal, in the syntax of Kafka's"
                                + " ssl.principal.mapping.rules (default: ${DEFAULT-VALUE})."),
                FrontEndOption.text(
                        395,
                        MAX_TOPICS_PER_CONNECTION,
                        "N",
                        DEFAULT_MAX_TOPICS_PER_CONNECTION,
                        "Kafka topics one client connection has Sluice track at most; records of more are refused"
                                + " (default: ${DEFAULT-VALUE})."));
    }

    @Override
    public String enablingOption() {
        return UPSTREAM;
    }

    @Override
    public String upstreamTlsCondition() {
        return "with " + UPSTREAM_TLS;
    }

    @Override
    public FrontEndConfig configure(OptionValues values) {
        boolean tls = values.flag(UPSTREAM_TLS);
        if (!values.isSet(UPSTREAM)) {
            if (tls) {
                throw new IllegalArgumentException("invalid " + UPSTREAM_TLS + ": needs " + UPSTREAM);
            }
            return null;
        }
        List<BrokerEndpoint> servers =
                OptionValues.parse(UPSTREAM, () -> BrokerEndpoint.parseList(values.value(UPSTREAM)));
        HostPort listen = OptionValues.parse(LISTEN, () -> HostPort.parse(values.value(LISTEN)));
        RoutingMode mode = OptionValues.parse(
                ADDRESS_MODE,
                () -> OptionValues.either(
                        values.value(ADDRESS_MODE),
                        "passthrough",
                        RoutingMode.PASSTHROUGH,
                        "rewrite",
                        RoutingMode.REWRITE));
        String host = values.isSet(ADVERTISED_HOST)
                ? values.value(ADVERTISED_HOST).trim()
                : OptionValues.parse(ADVERTISED_HOST, () -> advertisedHostOf(listen));
        int base = OptionValues.parse(NODE_PORT_BASE, () -> {
            if (values.isSet(NODE_PORT_BASE)) {
                return OptionValues.positiveInt(values.value(NODE_PORT_BASE));
            }
            if (listen.port() == 0 && mode == RoutingMode.REWRITE) {
                throw new IllegalArgumentException("must be set when " + LISTEN + " picks a free port (port 0)");
            }
            return listen.port() + 1;
        });
        LookupLogin login = lookupLogin(values);
        SslPrincipalMapping principalMapping = OptionValues.parse(
                SSL_PRINCIPAL_MAPPING_RULES,
                () -> SslPrincipalMapping.parse(values.value(SSL_PRINCIPAL_MAPPING_RULES)));
        int maxTopics = OptionValues.parse(
                MAX_TOPICS_PER_CONNECTION, () -> OptionValues.positiveInt(values.value(MAX_TOPICS_PER_CONNECTION)));
        return OptionValues.parse(
                NODE_PORT_BASE,
                () -> new KafkaConfig(servers, listen, host, base, mode, tls, login, principalMapping, maxTopics));
    }

    /** The login of Sluice's own requests to the cluster: all three options, or none. */
    private static LookupLogin lookupLogin(OptionValues values) {
        boolean mechanism = values.isSet(LOOKUP_MECHANISM);
        if (!mechanism && !values.isSet(LOOKUP_USERNAME) && !values.isSet(LOOKUP_PASSWORD_FILE)) {
            return null;
        }
        if (!mechanism || !values.isSet(LOOKUP_USERNAME) || !values.isSet(LOOKUP_PASSWORD_FILE)) {
            throw new IllegalArgumentException("invalid " + LOOKUP_MECHANISM + ": it, " + LOOKUP_USERNAME + " and "
                    + LOOKUP_PASSWORD_FILE + " go together");
        }
        Path passwordFile = Path.of(values.value(LOOKUP_PASSWORD_FILE).trim());
        if (!Files.isReadable(passwordFile)) {
            throw new IllegalArgumentException("invalid " + LOOKUP_PASSWORD_FILE + ": cannot read " + passwordFile);
        }
        return OptionValues.parse(
                LOOKUP_MECHANISM,
                () -> new LookupLogin(
                        values.value(LOOKUP_MECHANISM).trim(),
                        values.value(LOOKUP_USERNAME).trim(),
                        passwordFile));
    }

    /** The listen host, or the machine's name when that is a wildcard address. */
    private static String advertisedHostOf(HostPort listen) {
        String host = listen.host();
        if (!host.equals("0.0.0.0") && !host.equals("::") && !host.equals("0:0:0:0:0:0:0:0")) {
            return host;
        }
        try {
            return InetAddress.getLocalHost().getHostName();
        } catch (UnknownHostException e) {
            throw new IllegalArgumentException("the machine's name is unknown (" + e.getMessage() + "); set it");
        }
    }

    @Override
    public ProtocolScopes scopes() {
        return KafkaScopes.DECLARED;
    }
}
