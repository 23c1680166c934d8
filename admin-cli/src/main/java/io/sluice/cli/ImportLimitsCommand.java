package io.sluice.cli;

import com.fasterxml.jackson.databind.JsonNode;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.concurrent.Callable;

/**
 * {@code sluice limits import FILE [--dry-run]}: replaces every limit with a document's, after
 * showing scope by scope what changes.
 */
@Command(
        name = "import",
        description = {
            "Replace every limit in force with those of a file (a backup from 'export').",
            "Prints first which scopes are added (+), changed (~) and removed (-), then applies them all at once",
            "(PUT /api/v1/limits). The document is checked before anything is sent: a bad one changes nothing."
        })
final class ImportLimitsCommand implements Callable<Integer> {

    private final Invocation invocation;

    @Parameters(
            index = "0",
            paramLabel = "FILE",
            description = "The limits document, as 'sluice limits export' writes it; - for standard input.")
    String file;

    @Option(names = "--dry-run", description = "Print the changes only; change nothing.")
    boolean dryRun;

    @Mixin
    AdminTarget target;

    ImportLimitsCommand(Invocation invocation) {
        this.invocation = invocation;
    }

    @Override
    public Integer call() {
        byte[] document = read();
        AdminClient client = target.client(invocation);
        ServerScopes scopes = ServerScopes.of(client);
        JsonNode proposed = LimitsNormalForm.of(document, file.equals("-") ? "standard input" : file, scopes);
        LimitsDiff diff = LimitsDiff.between(scopes, client.get("/api/v1/limits"), proposed);
        diff.print(invocation.out());
        if (dryRun) {
            invocation.out().println("Dry run: nothing changed.");
        } else if (diff.isEmpty()) {
            invocation.out().println("Nothing to change.");
        } else {
            client.put("/api/v1/limits", document);
            invocation.out().println("Applied.");
        }
        return AdminCli.OK;
    }

    private byte[] read() {
        try {
            return file.equals("-") ? invocation.in().readAllBytes() : Files.readAllBytes(Path.of(file));
        } catch (IOException | InvalidPathException e) {
            throw CliFailure.usage("cannot read " + file + ": " + e, e);
        }
    }
}
