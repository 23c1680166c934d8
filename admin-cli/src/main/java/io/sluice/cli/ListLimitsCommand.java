package io.sluice.cli;

import com.fasterxml.jackson.databind.JsonNode;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

import java.util.concurrent.Callable;

/** {@code sluice limits list}: every limit in force, one scope a line. */
@Command(
        name = "list",
        description = {
            "List every limit in force, one scope a line.",
            "The whole document as JSON: 'sluice limits export'."
        })
final class ListLimitsCommand implements Callable<Integer> {

    private final Invocation invocation;

    @Mixin
    AdminTarget target;

    ListLimitsCommand(Invocation invocation) {
        this.invocation = invocation;
    }

    @Override
    public Integer call() {
        AdminClient client = target.client(invocation);
        ServerScopes scopes = ServerScopes.of(client);
        JsonNode document = client.get("/api/v1/limits");
        TextTable table = new TextTable("SCOPE", "NAME", "ON EXCEED", "LIMIT");
        for (DocumentScopes.Entry entry : DocumentScopes.list(scopes, document)) {
            table.row(
                    entry.scope(), entry.name(), LimitText.onExceed(entry.limit()), LimitText.describe(entry.limit()));
        }
        table.print(invocation.out());
        return AdminCli.OK;
    }
}
