package io.sluice.cli;

import com.fasterxml.jackson.databind.node.ObjectNode;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;

/**
 * {@code sluice admission set}: a partial settings update ({@code PUT /api/v1/admission}); what is
 * not named keeps its value. Not persisted by the server: a restart goes back to its config file.
 */
@Command(
        name = "set",
        sortOptions = false,
        description = {
            "Change admission control's settings now; what is not named keeps its value. Lasts until Sluice",
            "restarts (put lasting settings in its --config file). Prints the status that follows.",
            "e.g. sluice admission set --mode enforced --threshold upstream_latency_p99=500 --threshold cpu=off"
        })
final class AdmissionSetCommand implements Callable<Integer> {

    private final Invocation invocation;

    @Option(names = "--mode", paramLabel = "MODE", description = "disabled, monitor_only or enforced.")
    String mode;

    @Option(
            names = "--threshold",
            paramLabel = "SIGNAL=VALUE",
            description = "A signal's threshold (cpu, heap, direct_memory, event_loop_lag, upstream_latency_p99,"
                    + " upstream_connect_failures); off stops using the signal. Repeatable.")
    List<String> thresholds;

    @Option(names = "--sample-interval-millis", paramLabel = "MS", description = "How often signals are sampled.")
    Long sampleIntervalMillis;

    @Option(
            names = "--open-after-breaches",
            paramLabel = "N",
            description = "Consecutive breached samples that open a breaker.")
    Long openAfterBreaches;

    @Option(
            names = "--cool-down-millis",
            paramLabel = "MS",
            description = "How long a breaker stays open before half-open.")
    Long coolDownMillis;

    @Option(
            names = "--half-open-admit-share",
            paramLabel = "SHARE",
            description = "Share of requests a half-open breaker admits, 0-1.")
    Double halfOpenAdmitShare;

    @Option(
            names = "--close-after-healthy",
            paramLabel = "N",
            description = "Healthy samples that close a half-open breaker.")
    Long closeAfterHealthy;

    @Mixin
    AdminTarget target;

    AdmissionSetCommand(Invocation invocation) {
        this.invocation = invocation;
    }

    @Override
    public Integer call() {
        ObjectNode update = Json.MAPPER.createObjectNode();
        if (mode != null) {
            update.put("mode", mode.toLowerCase(Locale.ROOT));
        }
        if (thresholds != null) {
            ObjectNode values = update.putObject("thresholds");
            for (String threshold : thresholds) {
                threshold(values, threshold);
            }
        }
        putIfSet(update, "sampleIntervalMillis", sampleIntervalMillis);
        putIfSet(update, "openAfterBreaches", openAfterBreaches);
        putIfSet(update, "coolDownMillis", coolDownMillis);
        if (halfOpenAdmitShare != null) {
            update.put("halfOpenAdmitShare", halfOpenAdmitShare);
        }
        putIfSet(update, "closeAfterHealthy", closeAfterHealthy);
        if (update.isEmpty()) {
            throw CliFailure.usage("nothing to set: give --mode, --threshold or another setting (see --help)");
        }
        AdmissionGetCommand.print(
                target.client(invocation)
                        .put("/api/v1/admission", Json.compact(update).getBytes(StandardCharsets.UTF_8)),
                invocation);
        return AdminCli.OK;
    }

    private static void threshold(ObjectNode values, String text) {
        int equals = text.indexOf('=');
        if (equals <= 0) {
            throw CliFailure.usage(
                    "invalid --threshold '" + text + "': expected SIGNAL=VALUE, e.g. upstream_latency_p99=500");
        }
        String signal = text.substring(0, equals).strip();
        String value = text.substring(equals + 1).strip().toLowerCase(Locale.ROOT);
        switch (value) {
            case "off", "none" -> values.putNull(signal);
            default -> {
                try {
                    values.put(signal, Double.parseDouble(value));
                } catch (NumberFormatException e) {
                    throw CliFailure.usage("invalid --threshold '" + text + "': the value must be a number or off", e);
                }
            }
        }
    }

    private static void putIfSet(ObjectNode update, String field, Long value) {
        if (value != null) {
            update.put(field, value);
        }
    }
}
