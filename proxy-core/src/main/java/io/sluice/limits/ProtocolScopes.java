package io.sluice.limits;

import io.sluice.status.IdentityField;

import java.util.List;
import java.util.Objects;
import java.util.function.Function;

/**
 * The scope kinds one front end declares, and the fields that say who its clients are, as it
 * registers them in a {@link ScopeCatalogue}.
 *
 * @param protocol the protocol every kind covers, e.g. {@code kafka}: the {@code protocol} of its
 *     meters, throttles and metrics
 * @param kinds its kinds, each of this protocol
 * @param topicScopes the scopes a topic's own limit may sit at (a Pulsar partition: itself and its
 *     partitioned topic), which decide whether the topic keeps its own metrics label
 * @param identity the fields its throttles name their client by, in the order they are listed
 */
public record ProtocolScopes(
        String protocol,
        List<ScopeKind> kinds,
        Function<String, List<ScopeRef>> topicScopes,
        List<IdentityField> identity) {

    /** @throws IllegalArgumentException when a kind is of another protocol, or a field repeats */
    public ProtocolScopes {
        Objects.requireNonNull(protocol, "protocol");
        kinds = List.copyOf(kinds);
        Objects.requireNonNull(topicScopes, "topicScopes");
        identity = List.copyOf(identity);
        if (identity.stream().map(IdentityField::name).distinct().count() != identity.size()) {
            throw new IllegalArgumentException("protocol " + protocol + " declares an identity field twice");
        }
        for (ScopeKind kind : kinds) {
            if (!protocol.equals(kind.protocol())) {
                throw new IllegalArgumentException("scope kind " + kind + " is not of protocol " + protocol);
            }
        }
    }
}
