package io.sluice.cli;

import picocli.CommandLine.Command;

/** {@code sluice limits ...}: read and change the limits in force. */
@Command(
        name = "limits",
        description = "Read and change the limits in force; every change is persisted by the server before it answers.",
        subcommands = {
            GetLimitCommand.class,
            SetLimitCommand.class,
            DeleteLimitCommand.class,
            ListLimitsCommand.class,
            ExportLimitsCommand.class,
            ImportLimitsCommand.class
        })
final class LimitsCommand {}
