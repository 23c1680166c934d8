package io.sluice.cli;

import com.fasterxml.jackson.databind.JsonNode;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;

/** {@code sluice throttled}: the producers and consumers throttled now, oldest first. */
@Command(
        name = "throttled",
        description = {
            "List the producers and consumers Sluice throttles now, oldest first: which scope's limit,",
            "what it exceeds, what Sluice does (delay, reject, notify) and what it holds."
        })
final class ThrottledCommand implements Callable<Integer> {

    /** The fields of every entry; the others are the client's identity fields. */
    private static final Set<String> EVERY_ENTRYS = Set.of(
            "protocol", "connection", "topic", "scope", "reason", "action", "since", "heldMessages", "heldBytes");

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

    /**
     * Who the client is: the entry's identity fields, those its front end declares (a Pulsar
     * {@code producerId=3 role=alice}, a Kafka {@code clientId=billing principal=User:alice}), each
     * field the server lists that is not one of every entry's.
     */
    private static String client(JsonNode entry) {
        List<String> fields = new ArrayList<>();
        entry.properties().forEach(field -> {
            if (!EVERY_ENTRYS.contains(field.getKey()) && !field.getValue().isNull()) {
                fields.add(field.getKey() + "=" + field.getValue().asText());
            }
        });
        return String.join(" ", fields);
    }

    private static String text(JsonNode entry, String field) {
        JsonNode value = entry.get(field);
        return value == null || value.isNull() ? "" : value.asText();
    }
}
