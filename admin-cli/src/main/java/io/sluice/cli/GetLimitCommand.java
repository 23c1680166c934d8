package io.sluice.cli;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

import java.util.concurrent.Callable;

/** {@code sluice limits get SCOPE [NAME]}: one scope's limit, as JSON. */
@Command(
        name = "get",
        description = {
            "Print one scope's limit as JSON (defaults filled in).",
            "e.g. sluice limits get topic persistent://public/default/orders"
        })
final class GetLimitCommand implements Callable<Integer> {

    private final Invocation invocation;

    @Mixin
    ScopeArgument scope;

    @Mixin
    AdminTarget target;

    GetLimitCommand(Invocation invocation) {
        this.invocation = invocation;
    }

    @Override
    public Integer call() {
        AdminClient client = target.client(invocation);
        String path = scope.scope(ServerScopes.of(client)).path(scope.name);
        invocation.out().println(Json.pretty(client.get(path)));
        return AdminCli.OK;
    }
}
