package io.sluice.cli;

import picocli.CommandLine.Command;

/** {@code sluice admission ...}: admission control's state and settings. */
@Command(
        name = "admission",
        description = "Show or change admission control, which sheds new connections, lookups, producers and consumers"
                + " while Sluice or the broker is in duress.",
        subcommands = {AdmissionGetCommand.class, AdmissionSetCommand.class})
final class AdmissionCommand {}
