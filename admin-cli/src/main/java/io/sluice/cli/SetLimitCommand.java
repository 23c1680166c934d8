package io.sluice.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.sluice.limits.OnExceed;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;

/**
 * {@code sluice limits set SCOPE [NAME] --publish-rate ...}: changes the fields named on the
 * command line of one scope's limit and keeps the others, by reading the limit in force and
 * writing it back (PUT) changed; {@code --replace} starts from no limit instead.
 */
@Command(
        name = "set",
        sortOptions = false,
        description = {
            "Set fields of one scope's limit; fields not named keep their value.",
            "'unlimited' removes a field. Rates take units: 500, 5k, 1.5M; bytes 10MiB, 512KiB, 1.5MB. Prints the limit as stored.",
            "e.g. sluice limits set topic persistent://public/default/orders --publish-rate 500 --on-exceed reject",
            "     sluice limits set kafka-topic orders --publish-bytes 10MiB",
            "     sluice limits set tenant bulk --publish-rate 1M --adaptive-target 20ms --adaptive-floor 5%",
            "     sluice limits set ip 10.1.0.0/16 --connections-per-second 10",
            "     sluice limits set role '*' --requests-per-second 100 --on-exceed reject",
            "     sluice limits set kafka-principal User:alice --mutations-per-second 5",
            "     sluice limits set kafka-group 'orders-*' --joins-per-minute 10 --commits-per-minute 600",
            "     sluice limits set connection --max-held-bytes 128MiB"
        })
final class SetLimitCommand implements Callable<Integer> {

    private final Invocation invocation;

    @Mixin
    ScopeArgument scope;

    @Option(names = "--publish-rate", paramLabel = "MSGS", description = "Messages per second producers may send.")
    String publishRate;

    @Option(
            names = "--publish-bytes",
            paramLabel = "BYTES",
            description = "Payload bytes per second producers may send.")
    String publishBytes;

    @Option(
            names = "--publish-burst",
            paramLabel = "SECONDS",
            description = "Publish bucket size, in seconds of rate (0.01-60; default 1).")
    String publishBurst;

    @Option(names = "--dispatch-rate", paramLabel = "MSGS", description = "Messages per second consumers may receive.")
    String dispatchRate;

    @Option(
            names = "--dispatch-bytes",
            paramLabel = "BYTES",
            description = "Payload bytes per second consumers may receive.")
    String dispatchBytes;

    @Option(
            names = "--dispatch-burst",
            paramLabel = "SECONDS",
            description = "Dispatch bucket size, in seconds of rate.")
    String dispatchBurst;

    @Option(
            names = "--connections-per-second",
            paramLabel = "N",
            description = "ip, role, kafka-principal, kafka-client: new client connections per second; over it an"
                    + " address's connection waits up to 1 s, an identity's is closed after its handshake.")
    String connectionsPerSecond;

    @Option(
            names = "--connections-burst",
            paramLabel = "SECONDS",
            description = "ip, role, kafka-principal, kafka-client: connection bucket size, in seconds of rate.")
    String connectionsBurst;

    @Option(
            names = "--requests-per-second",
            paramLabel = "N",
            description = "ip, topics and identities: requests that create work on the broker (lookups, metadata,"
                    + " new producers and consumers) per second; over it a request waits, or is refused with"
                    + " --on-exceed reject.")
    String requestsPerSecond;

    @Option(
            names = "--requests-burst",
            paramLabel = "SECONDS",
            description = "Request bucket size, in seconds of rate.")
    String requestsBurst;

    @Option(
            names = "--mutations-per-second",
            paramLabel = "N",
            description = "kafka-principal, kafka-client: partitions created or deleted per second (CreateTopics,"
                    + " CreatePartitions, DeleteTopics, as Kafka's controller mutation quota counts them); a topic"
                    + " over it is refused with THROTTLING_QUOTA_EXCEEDED.")
    String mutationsPerSecond;

    @Option(
            names = "--mutations-burst",
            paramLabel = "SECONDS",
            description = "kafka-principal, kafka-client: mutation bucket size, in seconds of rate.")
    String mutationsBurst;

    @Option(
            names = "--joins-per-minute",
            paramLabel = "N",
            description = "kafka-group: JoinGroup requests per minute; over it a join waits, or is refused with"
                    + " --on-exceed reject.")
    String joinsPerMinute;

    @Option(
            names = "--commits-per-minute",
            paramLabel = "N",
            description = "kafka-group: OffsetCommit requests per minute; over it a commit waits, or is refused with"
                    + " --on-exceed reject.")
    String commitsPerMinute;

    @Option(names = "--burst", paramLabel = "SECONDS", description = "Bucket size of every rate the limit has.")
    String burst;

    @Option(names = "--on-exceed", paramLabel = "ACTION", description = "delay (hold the sends), reject or notify.")
    String onExceed;

    @Option(
            names = "--adaptive-target",
            paramLabel = "LATENCY",
            description = "Make the publish rates ceilings that follow the broker: the upstream p99 publish latency"
                    + " to hold, e.g. 20ms or 0.5s; 'off' for fixed rates again.")
    String adaptiveTarget;

    @Option(
            names = "--adaptive-floor",
            paramLabel = "FRACTION",
            description = "The least part of the ceiling an adaptive rate falls to, e.g. 5% or 0.05 (default 5%).")
    String adaptiveFloor;

    @Option(
            names = "--max-pending-sends",
            paramLabel = "N",
            description = "connection: sends without a receipt per connection.")
    String maxPendingSends;

    @Option(
            names = "--max-held-bytes",
            paramLabel = "BYTES",
            description = "connection: bytes Sluice may hold per connection.")
    String maxHeldBytes;

    @Option(
            names = "--replace",
            description = "Start from no limit (connection: the defaults) instead of the limit in force.")
    boolean replace;

    @Mixin
    AdminTarget target;

    SetLimitCommand(Invocation invocation) {
        this.invocation = invocation;
    }

    @Override
    public Integer call() {
        AdminClient client = target.client(invocation);
        LimitScope kind = scope.scope(ServerScopes.of(client));
        String path = kind.path(scope.name);
        checkOptionsFit(kind);
        JsonNode current = replace ? null : client.getIfPresent(path);
        ObjectNode limit = current instanceof ObjectNode object ? object.deepCopy() : Json.MAPPER.createObjectNode();
        if (kind.isConnection()) {
            setWhole(limit, "maxPendingSends", "--max-pending-sends", maxPendingSends);
            setWhole(limit, "maxHeldBytes", "--max-held-bytes", maxHeldBytes);
        } else {
            applyRates(limit, kind);
        }
        JsonNode stored = client.put(path, Json.compact(limit).getBytes(StandardCharsets.UTF_8));
        invocation.out().println(Json.pretty(stored));
        return AdminCli.OK;
    }

    private void checkOptionsFit(LimitScope kind) {
        boolean rates = publishRate != null
                || publishBytes != null
                || publishBurst != null
                || dispatchRate != null
                || dispatchBytes != null
                || dispatchBurst != null
                || burst != null
                || connectionsPerSecond != null
                || connectionsBurst != null
                || requestsPerSecond != null
                || requestsBurst != null
                || mutationsPerSecond != null
                || mutationsBurst != null
                || joinsPerMinute != null
                || commitsPerMinute != null
                || onExceed != null
                || adaptiveTarget != null
                || adaptiveFloor != null;
        boolean connection = maxPendingSends != null || maxHeldBytes != null;
        if (kind.isConnection() && rates) {
            throw CliFailure.usage("connection limits take --max-pending-sends and --max-held-bytes only");
        }
        if (!kind.isConnection() && connection) {
            throw CliFailure.usage("--max-pending-sends and --max-held-bytes are for 'sluice limits set connection'");
        }
        if (!rates && !connection && !(replace && kind.isConnection())) {
            throw CliFailure.usage(
                    "nothing to set: give --publish-rate, --publish-bytes, --dispatch-rate, --dispatch-bytes,"
                            + " --connections-per-second, --requests-per-second, --mutations-per-second, --joins-per-minute, --commits-per-minute, a burst, --on-exceed"
                            + " or --adaptive-target"
                            + (kind.isConnection()
                                    ? "; for connection --max-pending-sends, --max-held-bytes"
                                            + " or --replace (the defaults)"
                                    : ""));
        }
    }

    private void applyRates(ObjectNode limit, LimitScope kind) {
        direction(limit, "publish", "--publish", publishRate, publishBytes, publishBurst);
        direction(limit, "dispatch", "--dispatch", dispatchRate, dispatchBytes, dispatchBurst);
        events(limit, "connections", "perSecond", "--connections", connectionsPerSecond, connectionsBurst);
        events(limit, "requests", "perSecond", "--requests", requestsPerSecond, requestsBurst);
        events(limit, "mutations", "partitionsPerSecond", "--mutations", mutationsPerSecond, mutationsBurst);
        setRate(limit, "joinsPerMinute", "--joins-per-minute", joinsPerMinute);
        setRate(limit, "commitsPerMinute", "--commits-per-minute", commitsPerMinute);
        if (burst != null) {
            double seconds = number("--burst", burst);
            boolean any = false;
            for (String direction : new String[] {"publish", "dispatch", "connections", "requests", "mutations"}) {
                if (limit.get(direction) instanceof ObjectNode rates) {
                    rates.put("burstSeconds", seconds);
                    any = true;
                }
            }
            if (!any) {
                throw CliFailure.usage("--burst needs a rate to apply to; give --publish-rate or another rate too");
            }
        }
        applyAdaptive(limit);
        if (onExceed != null) {
            String action = onExceed.toLowerCase(Locale.ROOT);
            List<String> actions = OnExceed.jsonNames();
            if (!actions.contains(action)) {
                throw CliFailure.usage("invalid --on-exceed '" + onExceed + "': expected "
                        + String.join(", ", actions.subList(0, actions.size() - 1)) + " or "
                        + actions.get(actions.size() - 1));
            }
            limit.put("onExceed", action);
        }
        if (!limit.has("publish")
                && !limit.has("dispatch")
                && !limit.has("connections")
                && !limit.has("requests")
                && !limit.has("mutations")
                && !limit.has("joinsPerMinute")
                && !limit.has("commitsPerMinute")) {
            throw CliFailure.usage("the limit would have no rate left; to remove it use 'sluice limits delete "
                    + kind.describe(scope.name) + "'");
        }
    }

    /**
     * A rate of events, {@code part} ({@code connections}, {@code requests}, {@code mutations}) whose
     * rate is its field {@code rateField}, from {@code <option>-per-second} and
     * {@code <option>-burst}; no rate left removes the part.
     */
    private void events(
            ObjectNode limit, String part, String rateField, String option, String perSecond, String burstSeconds) {
        ObjectNode rate = limit.get(part) instanceof ObjectNode existing ? existing : Json.MAPPER.createObjectNode();
        setRate(rate, rateField, option + "-per-second", perSecond);
        if (burstSeconds != null) {
            rate.put("burstSeconds", number(option + "-burst", burstSeconds));
        }
        if (rate.hasNonNull(rateField)) {
            limit.set(part, rate);
        } else if (burstSeconds != null) {
            throw CliFailure.usage(option + "-burst needs a rate; give " + option + "-per-second too");
        } else {
            limit.remove(part);
        }
    }

    /** {@code --adaptive-target} and {@code --adaptive-floor}, on the publish rates they make ceilings of. */
    private void applyAdaptive(ObjectNode limit) {
        if (adaptiveTarget == null && adaptiveFloor == null) {
            return;
        }
        if (!(limit.get("publish") instanceof ObjectNode publish)) {
            throw CliFailure.usage("an adaptive limit needs a publish rate for its ceiling: give --publish-rate or"
                    + " --publish-bytes too");
        }
        if (adaptiveTarget != null && adaptiveTarget.equalsIgnoreCase("off")) {
            if (adaptiveFloor != null) {
                throw CliFailure.usage("--adaptive-floor goes with an adaptive limit, not with --adaptive-target off");
            }
            publish.remove("adaptive");
            return;
        }
        ObjectNode adaptive =
                publish.get("adaptive") instanceof ObjectNode existing ? existing : Json.MAPPER.createObjectNode();
        if (adaptiveTarget != null) {
            adaptive.put("targetLatencyMillis", AdaptiveOptions.latencyMillis(adaptiveTarget));
        }
        if (adaptiveFloor != null) {
            adaptive.put("floorFraction", AdaptiveOptions.fraction(adaptiveFloor));
        }
        if (!adaptive.has("targetLatencyMillis")) {
            throw CliFailure.usage("--adaptive-floor needs --adaptive-target: this limit is not adaptive yet");
        }
        publish.set("adaptive", adaptive);
    }

    /** Applies one direction's options; a direction left with no rate is removed, with its burst. */
    private static void direction(
            ObjectNode limit, String direction, String option, String messages, String bytes, String burst) {
        ObjectNode rates =
                limit.get(direction) instanceof ObjectNode existing ? existing : Json.MAPPER.createObjectNode();
        setRate(rates, "messagesPerSecond", option + "-rate", messages);
        setRate(rates, "bytesPerSecond", option + "-bytes", bytes);
        if (burst != null) {
            rates.put("burstSeconds", number(option + "-burst", burst));
        }
        if (rates.hasNonNull("messagesPerSecond") || rates.hasNonNull("bytesPerSecond")) {
            limit.set(direction, rates);
        } else if (burst != null) {
            throw CliFailure.usage(option + "-burst needs a " + direction + " rate; give " + option + "-rate or "
                    + option + "-bytes too");
        } else {
            limit.remove(direction);
        }
    }

    private static void setRate(ObjectNode rates, String field, String option, String text) {
        if (text == null) {
            return;
        }
        double value = quantity(option, text);
        if (Double.isNaN(value)) {
            rates.remove(field);
        } else {
            rates.put(field, value);
        }
    }

    private static void setWhole(ObjectNode limit, String field, String option, String text) {
        if (text == null) {
            return;
        }
        try {
            limit.put(field, Quantity.parseWhole(text));
        } catch (IllegalArgumentException e) {
            throw CliFailure.usage("invalid " + option + ": " + e.getMessage(), e);
        }
    }

    private static double number(String option, String text) {
        double value = quantity(option, text);
        if (Double.isNaN(value)) {
            throw CliFailure.usage("invalid " + option + ": a number of seconds, e.g. 2 or 0.5");
        }
        return value;
    }

    private static double quantity(String option, String text) {
        try {
            return Quantity.parse(text);
        } catch (IllegalArgumentException e) {
            throw CliFailure.usage("invalid " + option + ": " + e.getMessage(), e);
        }
    }
}
