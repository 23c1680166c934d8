package io.sluice.cli;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.concurrent.Callable;

/** {@code sluice limits export [-o FILE]}: the whole limits document, for a backup or a review. */
@Command(
        name = "export",
        description = {
            "Print the whole limits document, or write it to a file: a backup.",
            "'sluice limits import' takes the same document back (GET and PUT /api/v1/limits)."
        })
final class ExportLimitsCommand implements Callable<Integer> {

    private final Invocation invocation;

    @Option(
            names = {"-o", "--output"},
            paramLabel = "FILE",
            description = "Write to FILE (replaced whole) instead of standard output.")
    Path output;

    @Mixin
    AdminTarget target;

    ExportLimitsCommand(Invocation invocation) {
        this.invocation = invocation;
    }

    @Override
    public Integer call() {
        byte[] document = target.client(invocation).getBytes("/api/v1/limits");
        if (output == null) {
            invocation.out().print(new String(document, StandardCharsets.UTF_8));
            invocation.out().println();
            return AdminCli.OK;
        }
        write(document);
        invocation.out().println("Wrote the limits document to " + output + ".");
        return AdminCli.OK;
    }

    /** Written beside the target and moved over it, so a failed export never leaves half a backup. */
    private void write(byte[] document) {
        Path absolute = output.toAbsolutePath();
        try {
            Path temporary = Files.createTempFile(absolute.getParent(), ".sluice-limits", ".tmp");
            try {
                Files.write(temporary, document);
                try {
                    Files.move(
                            temporary, absolute, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
                } catch (AtomicMoveNotSupportedException e) {
                    Files.move(temporary, absolute, StandardCopyOption.REPLACE_EXISTING);
                }
            } finally {
                Files.deleteIfExists(temporary);
            }
        } catch (IOException e) {
            throw CliFailure.usage("cannot write " + output + ": " + e, e);
        }
    }
}
