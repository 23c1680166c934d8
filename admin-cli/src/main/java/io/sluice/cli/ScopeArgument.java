package io.sluice.cli;

import picocli.CommandLine.Parameters;

/** The {@code SCOPE [NAME]} arguments of {@code limits get|set|delete}. */
final class ScopeArgument {

    @Parameters(
            index = "0",
            paramLabel = "SCOPE",
            description = "topic, namespace, tenant, proxy, connection, kafka-topic, kafka-prefix or kafka-client.")
    String scope;

    @Parameters(
            index = "1",
            arity = "0..1",
            paramLabel = "NAME",
            description = "The scope's name: persistent://tenant/namespace/topic, tenant/namespace, tenant, or a Kafka"
                    + " topic, prefix or client id. None for proxy and connection.")
    String name;

    /** The scope, checked against its name. @throws CliFailure (usage) when the name is missing or not wanted */
    LimitScope scope() {
        LimitScope parsed = LimitScope.parse(scope);
        if (parsed.named() && (name == null || name.isEmpty())) {
            throw CliFailure.usage(parsed.cliName() + " needs a NAME, e.g. 'sluice limits get " + parsed.cliName() + " "
                    + example(parsed) + "'");
        }
        if (!parsed.named() && name != null) {
            throw CliFailure.usage(parsed.cliName() + " takes no NAME, got '" + name + "'");
        }
        return parsed;
    }

    /** The admin API path of this scope's limit. */
    String path() {
        return scope().path(name);
    }

    /** e.g. {@code topic persistent://public/default/orders}. */
    String describe() {
        return scope().describe(name);
    }

    private static String example(LimitScope scope) {
        return switch (scope) {
            case TOPIC -> "persistent://public/default/orders";
            case NAMESPACE -> "public/default";
            case TENANT -> "public";
            case KAFKA_PREFIX -> "orders.";
            case KAFKA_CLIENT -> "billing-service";
            default -> "orders";
        };
    }
}
