package io.sluice.cli;

import com.fasterxml.jackson.databind.JsonNode;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.time.Instant;
import java.util.concurrent.Callable;

/** {@code sluice throttled}: the producers and consumers throttled now, oldest first. */
@Command(
        name = "throttled",
        description = {
            "List the producers and consumers Sluice throttles now, oldest first: which scope's limit,",
            "what it exceeds, what Sluice does (delay, reject, notify) and what it holds."
        })
final class ThrottledCommand implements Callable<Integer> {

    private final Invocation invocation;

    @Option(names = "--json", description = "Print the server's JSON (GET /api/v1/throttled) instead of a table.")
    boolean json;

    @Mixin
    AdminTarget target;

    ThrottledCommand(Invocation invocation) {
        this.invocation = invocation;
    }

    @Override
    public Integer call() {
        JsonNode throttled = target.client(invocation).get("/api/v1/throttled");
        if (json) {
            invocation.out().println(Json.pretty(throttled));
            return AdminCli.OK;
        }
        if (throttled.isEmpty()) {
            invocation.out().println("Nothing is throttled now.");
            return AdminCli.OK;
        }
        Instant now = invocation.clock().instant();
        TextTable table = new TextTable(
                "PROTOCOL",
                "TOPIC",
                "CLIENT",
                "SCOPE",
                "REASON",
                "ACTION",
                "FOR>",
                "HELD MSGS>",
                "HELD BYTES>",
                "CONNECTION");
        for (JsonNode entry : throttled) {
            table.row(
                    text(entry, "protocol"),
                    text(entry, "topic"),
                    client(entry),
                    text(entry, "scope"),
                    text(entry, "reason"),
                    text(entry, "action"),
                    Age.since(text(entry, "since"), now),
                    Quantity.count(entry.path("heldMessages").asDouble()),
                    Quantity.bytes(entry.path("heldBytes").asDouble()),
                    text(entry, "connection"));
        }
        table.print(invocation.out());
        return AdminCli.OK;
    }

    /** {@code producer 3}, {@code consumer 7}, or the Kafka client id. */
    private static String client(JsonNode entry) {
        if (entry.hasNonNull("producerId")) {
            return "producer " + entry.get("producerId").asText();
        }
        if (entry.hasNonNull("consumerId")) {
            return "consumer " + entry.get("consumerId").asText();
        }
        return text(entry, "clientId");
    }

    private static String text(JsonNode entry, String field) {
        JsonNode value = entry.get(field);
        return value == null || value.isNull() ? "" : value.asText();
    }
}
