package io.sluice.cli;

import picocli.CommandLine.Parameters;

/** The {@code SCOPE [NAME]} arguments of {@code limits get|set|delete}. */
final class ScopeArgument {

    @Parameters(
            index = "0",
            paramLabel = "SCOPE",
            description = "One of the scopes the server lists (GET /api/v1/scopes), such as topic, namespace, tenant,"
                    + " proxy, connection, kafka-topic, kafka-prefix or kafka-client.")
    String scope;

    @Parameters(
            index = "1",
            arity = "0..1",
            paramLabel = "NAME",
            description = "The scope's name: persistent://tenant/namespace/topic, tenant/namespace, tenant, or a Kafka"
                    + " topic, prefix or client id. None for proxy and connection.")
    String name;

    /**
     * The scope among the server's, checked against its name.
     *
     * @throws CliFailure (usage) when the scope is unknown, or the name is missing or not wanted
     */
    LimitScope scope(ServerScopes scopes) {
        LimitScope parsed = scopes.parse(scope);
        if (parsed.named() && (name == null || name.isEmpty())) {
            throw CliFailure.usage(parsed.name() + " needs a NAME, e.g. 'sluice limits get " + parsed.name() + " "
                    + parsed.example() + "'");
        }
        if (!parsed.named() && name != null) {
            throw CliFailure.usage(parsed.name() + " takes no NAME, got '" + name + "'");
        }
        return parsed;
    }
}
