package io.sluice.server;

import io.sluice.kafka.routing.BrokerEndpoint;
import io.sluice.kafka.routing.RoutingMode;

import java.util.List;
import java.util.Objects;

/**
 * How the Kafka front end is started, after flags, environment and config file are merged.
 *
 * @param upstream       the cluster's bootstrap servers
 * @param listen         the bootstrap port for clients
 * @param advertisedHost the host clients are told to connect to for each broker (rewrite mode)
 * @param nodePortBase   broker node N is served on port {@code nodePortBase + N} (rewrite mode)
 * @param addressMode    whether broker addresses in responses become Sluice's
 */
public record KafkaConfig(
        List<BrokerEndpoint> upstream,
        HostPort listen,
        String advertisedHost,
        int nodePortBase,
        RoutingMode addressMode) {

    public KafkaConfig {
        upstream = List.copyOf(upstream);
        if (upstream.isEmpty()) {
            throw new IllegalArgumentException("at least one Kafka bootstrap server is needed");
        }
        Objects.requireNonNull(listen, "listen");
        Objects.requireNonNull(advertisedHost, "advertisedHost");
        Objects.requireNonNull(addressMode, "addressMode");
        if (nodePortBase < 1 || nodePortBase > 65535) {
            throw new IllegalArgumentException("node port base " + nodePortBase + " is not a port");
        }
    }
}
