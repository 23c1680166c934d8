package io.sluice.cli;

import picocli.CommandLine.Command;

/** The admin subcommands of {@code sluice}: the top of the CLI's command tree. */
@Command(
        name = "sluice",
        description = {
            "Sluice's admin commands, a client of its admin REST API. Exit codes: 0 done, 1 the server said no",
            "(or not found), 2 bad usage or file, 3 no connection to the server."
        },
        subcommands = {LimitsCommand.class, ThrottledCommand.class, TopicsCommand.class, AdmissionCommand.class})
final class AdminCommands {}
