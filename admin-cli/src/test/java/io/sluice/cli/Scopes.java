package io.sluice.cli;

import io.sluice.admin.limits.ScopesResource;
import io.sluice.kafka.scopes.KafkaScopes;
import io.sluice.limits.ScopeCatalogue;
import io.sluice.pulsar.scopes.PulsarScopes;

/** The scopes a server with the two front ends lists, as its admin API derives them. */
final class Scopes {

    /** What {@code GET /api/v1/scopes} of such a server answers, read by the CLI. */
    static final ServerScopes SERVED = served(ScopeCatalogue.of(PulsarScopes.DECLARED, KafkaScopes.DECLARED));

    private Scopes() {}

    /** What {@code GET /api/v1/scopes} of a server with {@code catalogue} answers, read by the CLI. */
    static ServerScopes served(ScopeCatalogue catalogue) {
        return ServerScopes.read(Json.MAPPER.valueToTree(new ScopesResource(catalogue).entries()));
    }
}
