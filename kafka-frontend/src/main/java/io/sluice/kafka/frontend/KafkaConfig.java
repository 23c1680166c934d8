package io.sluice.kafka.frontend;

import io.sluice.frontend.FrontEnd;
import io.sluice.frontend.FrontEndConfig;
import io.sluice.frontend.FrontEndContext;
import io.sluice.frontend.HostPort;
import io.sluice.kafka.codec.ApiLabels;
import io.sluice.kafka.routing.BrokerEndpoint;
import io.sluice.kafka.routing.LookupLogin;
import io.sluice.kafka.routing.RoutingMode;
import io.sluice.kafka.scopes.KafkaScopes;
import io.sluice.kafka.scopes.SslPrincipalMapping;
import io.sluice.relay.ProxyStats;

import java.util.List;
import java.util.Objects;

/**
 * How the Kafka front end is started, after flags, environment and config file are merged.
 *
 * @param upstream       {@code --kafka-upstream}: the cluster's bootstrap servers
 * @param listen         {@code --kafka-listen}: the bootstrap port for clients
 * @param advertisedHost the host clients are told to connect to for each broker (rewrite mode)
 * @param nodePortBase   broker node N is served on port {@code nodePortBase + N} (rewrite mode)
 * @param addressMode    whether broker addresses in responses become Sluice's
 * @param upstreamTls    whether Sluice speaks TLS to the brokers ({@code --kafka-upstream-tls})
 * @param lookupLogin    how Sluice's own requests to the cluster log in with SASL
 *                       ({@code --kafka-lookup-sasl-*}); {@code null} when they do not
 * @param principalMapping how a client certificate's subject names its connection's principal
 *                       ({@code --kafka-ssl-principal-mapping-rules})
 * @param maxTopicsPerConnection {@code --max-topics-per-connection}: topics one client connection
 *                       has Sluice track at most, whatever the client names
 */
public record KafkaConfig(
        List<BrokerEndpoint> upstream,
        HostPort listen,
        String advertisedHost,
        int nodePortBase,
        RoutingMode addressMode,
        boolean upstreamTls,
        LookupLogin lookupLogin,
        SslPrincipalMapping principalMapping,
        int maxTopicsPerConnection)
        implements FrontEndConfig {

    /** {@code --max-topics-per-connection} when nothing sets it. */
    public static final int DEFAULT_MAX_TOPICS_PER_CONNECTION =
            Integer.parseInt(KafkaFrontEndFactory.DEFAULT_MAX_TOPICS_PER_CONNECTION);

    /** The {@code protocol} label of the Kafka front end's metrics and meters: its scopes' protocol. */
    public static final String PROTOCOL = KafkaScopes.PROTOCOL;

    public KafkaConfig {
        upstream = List.copyOf(upstream);
        if (upstream.isEmpty()) {
            throw new IllegalArgumentException("at least one Kafka bootstrap server is needed");
        }
        Objects.requireNonNull(listen, "listen");
        Objects.requireNonNull(advertisedHost, "advertisedHost");
        Objects.requireNonNull(addressMode, "addressMode");
        Objects.requireNonNull(principalMapping, "principalMapping");
        if (maxTopicsPerConnection <= 0) {
            throw new IllegalArgumentException(
                    "maxTopicsPerConnection must be positive, got " + maxTopicsPerConnection);
        }
        if (nodePortBase < 1 || nodePortBase > 65535) {
            throw new IllegalArgumentException("node port base " + nodePortBase + " is not a port");
        }
    }

    @Override
    public String protocol() {
        return PROTOCOL;
    }

    @Override
    public String name() {
        return "Kafka";
    }

    /** The bootstrap port and, in rewrite mode, a port per broker node. */
    @Override
    public boolean severalPorts() {
        return true;
    }

    /** Counts requests by API as well. */
    @Override
    public ProxyStats newStats() {
        return new ProxyStats(PROTOCOL, ApiLabels.byKey());
    }

    @Override
    public FrontEnd open(FrontEndContext context) {
        return new KafkaFrontEnd(this, context);
    }
}
