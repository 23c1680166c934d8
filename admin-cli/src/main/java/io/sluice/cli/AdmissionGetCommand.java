package io.sluice.cli;

import com.fasterxml.jackson.databind.JsonNode;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.time.Instant;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;

/** {@code sluice admission get}: mode, each breaker's state, each signal against its threshold. */
@Command(
        name = "get",
        description = "Show admission control's mode, each request type's breaker, each signal against its threshold"
                + " and the recent transitions.")
final class AdmissionGetCommand implements Callable<Integer> {

    private final Invocation invocation;

    @Option(names = "--json", description = "Print the server's JSON (GET /api/v1/admission).")
    boolean json;

    @Mixin
    AdminTarget target;

    AdmissionGetCommand(Invocation invocation) {
        this.invocation = invocation;
    }

    @Override
    public Integer call() {
        JsonNode status = target.client(invocation).get("/api/v1/admission");
        if (json) {
            invocation.out().println(Json.pretty(status));
        } else {
            print(status, invocation);
        }
        return AdminCli.OK;
    }

    /** The status as people read it; shared with {@code admission set}, which prints the status it leads to. */
    static void print(JsonNode status, Invocation invocation) {
        Instant now = invocation.clock().instant();
        invocation.out().println("Mode: " + status.path("settings").path("mode").asText("?"));
        invocation.out().println();
        TextTable breakers = new TextTable("REQUEST TYPE", "STATE", "FOR>", "REJECTED>", "WOULD REJECT>", "REASON");
        for (Map.Entry<String, JsonNode> breaker : status.path("breakers").properties()) {
            JsonNode b = breaker.getValue();
            breakers.row(
                    breaker.getKey(),
                    b.path("state").asText(),
                    Age.since(b.path("since").asText(null), now),
                    Quantity.count(b.path("rejections").asDouble()),
                    Quantity.count(b.path("wouldBeRejections").asDouble()),
                    b.path("reason").isNull() ? "" : b.path("reason").asText());
        }
        breakers.print(invocation.out());
        invocation.out().println();
        TextTable signals = new TextTable("SIGNAL", "VALUE>", "THRESHOLD>", "BREACHED");
        JsonNode inForce = status.path("settings").path("thresholds");
        for (Map.Entry<String, JsonNode> signal : status.path("signals").properties()) {
            JsonNode s = signal.getValue();
            // The settings' threshold, not the last sample's: a change shows at once, not a sample later.
            JsonNode threshold = inForce.has(signal.getKey()) ? inForce.get(signal.getKey()) : s.path("threshold");
            signals.row(
                    signal.getKey(),
                    s.path("value").isNull() ? "unknown" : signalValue(signal.getKey(), s.path("value")),
                    threshold.isNull() ? "off" : signalValue(signal.getKey(), threshold),
                    s.path("breached").asBoolean() ? "yes" : "no");
        }
        signals.print(invocation.out());
        JsonNode transitions = status.path("recentTransitions");
        if (!transitions.isEmpty()) {
            invocation.out().println();
            invocation.out().println("Recent transitions:");
            for (JsonNode t : transitions) {
                String signal = t.path("signal").asText("");
                String cause = signal.isEmpty() || t.path("signal").isNull()
                        ? ""
                        : " (" + signal + " " + signalValue(signal, t.path("value")) + " > "
                                + signalValue(signal, t.path("threshold")) + ")";
                invocation
                        .out()
                        .println("  " + t.path("at").asText() + "  "
                                + t.path("type").asText() + " " + t.path("from").asText() + " -> "
                                + t.path("to").asText() + cause);
            }
        }
    }

    /** A signal's value in its unit: shares as percentages, latencies in milliseconds, counts as they are. */
    private static String signalValue(String signal, JsonNode value) {
        if (!value.isNumber()) {
            return Json.plain(value);
        }
        double number = value.doubleValue();
        return switch (signal) {
            case "cpu", "heap", "direct_memory" -> String.format(Locale.ROOT, "%.1f%%", number * 100);
            case "event_loop_lag", "upstream_latency_p99" -> String.format(Locale.ROOT, "%.0f ms", number);
            default -> Json.plain(value);
        };
    }
}
