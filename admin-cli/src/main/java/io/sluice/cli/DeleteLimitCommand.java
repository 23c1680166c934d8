package io.sluice.cli;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

import java.util.concurrent.Callable;

/** {@code sluice limits delete SCOPE [NAME]}: removes one scope's limit. */
@Command(
        name = "delete",
        description = {
            "Remove one scope's limit: the scope is then unlimited.",
            "Exit code 1 if it had none.",
            "e.g. sluice limits delete namespace public/default"
        })
final class DeleteLimitCommand implements Callable<Integer> {

    private final Invocation invocation;

    @Mixin
    ScopeArgument scope;

    @Mixin
    AdminTarget target;

    DeleteLimitCommand(Invocation invocation) {
        this.invocation = invocation;
    }

    @Override
    public Integer call() {
        AdminClient client = target.client(invocation);
        LimitScope kind = scope.scope(ServerScopes.of(client));
        if (kind.isConnection()) {
            throw CliFailure.usage("connection limits always have a value; restore the defaults with"
                    + " 'sluice limits set connection --replace'");
        }
        client.delete(kind.path(scope.name));
        invocation.out().println("Removed the limit of " + kind.describe(scope.name) + ".");
        return AdminCli.OK;
    }
}
