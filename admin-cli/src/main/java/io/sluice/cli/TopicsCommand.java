package io.sluice.cli;

import com.fasterxml.jackson.databind.JsonNode;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.util.concurrent.Callable;

/** {@code sluice topics}: every topic's rates over the last second, busiest publisher first. */
@Command(
        name = "topics",
        description = {
            "List the topics seen recently with their rates over the last second, busiest publisher first,",
            "what Sluice holds for them and how often throttling started."
        })
final class TopicsCommand implements Callable<Integer> {

    private final Invocation invocation;

    @Option(names = "--json", description = "Print the server's JSON (GET /api/v1/topics) instead of a table.")
    boolean json;

    @Option(names = "--top", paramLabel = "N", description = "Only the N busiest topics.")
    Integer top;

    @Mixin
    AdminTarget target;

    TopicsCommand(Invocation invocation) {
        this.invocation = invocation;
    }

    @Override
    public Integer call() {
        if (top != null && top < 1) {
            throw CliFailure.usage("--top must be at least 1, got " + top);
        }
        JsonNode topics = target.client(invocation).get("/api/v1/topics");
        if (json) {
            invocation.out().println(Json.pretty(topics));
            return AdminCli.OK;
        }
        if (topics.isEmpty()) {
            invocation.out().println("No topic has had traffic recently.");
            return AdminCli.OK;
        }
        TextTable table = new TextTable(
                "PROTOCOL",
                "TOPIC",
                "PUBLISH MSG/S>",
                "PUBLISH BYTES/S>",
                "DISPATCH MSG/S>",
                "DISPATCH BYTES/S>",
                "HELD MSGS>",
                "HELD BYTES>",
                "THROTTLES>");
        int rows = 0;
        for (JsonNode topic : topics) {
            if (top != null && rows++ >= top) {
                break;
            }
            table.row(
                    topic.path("protocol").asText(""),
                    topic.path("topic").asText(""),
                    Quantity.count(topic.path("publishMessagesPerSecond").asDouble()),
                    Quantity.bytes(topic.path("publishBytesPerSecond").asDouble()),
                    Quantity.count(topic.path("dispatchMessagesPerSecond").asDouble()),
                    Quantity.bytes(topic.path("dispatchBytesPerSecond").asDouble()),
                    Quantity.count(topic.path("heldMessages").asDouble()),
                    Quantity.bytes(topic.path("heldBytes").asDouble()),
                    Quantity.count(topic.path("throttleEvents").asDouble()));
        }
        table.print(invocation.out());
        return AdminCli.OK;
    }
}
