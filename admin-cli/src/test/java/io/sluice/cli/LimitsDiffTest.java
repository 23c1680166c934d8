package io.sluice.cli;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class LimitsDiffTest {

    private static JsonNode json(String text) throws IOException {
        return Json.read(text.replace('\'', '"').getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void scopesAddedChangedAndRemovedFieldByField() throws IOException {
        JsonNode current = json(
                "{'topics': {'persistent://a/b/kept': {'onExceed': 'delay'}, 'persistent://a/b/changed':"
                        + " {'publish': {'messagesPerSecond': 500.0, 'burstSeconds': 1.0}, 'onExceed': 'delay'}},"
                        + " 'tenants': {'gone': {'onExceed': 'delay'}}, 'connection': {'maxPendingSends': 100000, 'maxHeldBytes': 67108864}}");
        JsonNode proposed =
                json("{'topics': {'persistent://a/b/kept': {'onExceed': 'delay'}, 'persistent://a/b/changed':"
                        + " {'publish': {'messagesPerSecond': 1000.0, 'burstSeconds': 1.0}, 'dispatch': {'bytesPerSecond': 10.0},"
                        + " 'onExceed': 'reject'}}, 'proxy': {'onExceed': 'notify'},"
                        + " 'connection': {'maxPendingSends': 100000, 'maxHeldBytes': 67108864}}");
        LimitsDiff diff = LimitsDiff.between(Scopes.SERVED, current, proposed);
        StringWriter text = new StringWriter();
        diff.print(new PrintWriter(text, true));
        assertEquals(
                List.of(
                        "~ topic persistent://a/b/changed",
                        "    dispatch.bytesPerSecond: (none) -> 10",
                        "    onExceed: delay -> reject",
                        "    publish.messagesPerSecond: 500 -> 1000",
                        "- tenant gone  {\"onExceed\":\"delay\"}",
                        "+ proxy  {\"onExceed\":\"notify\"}",
                        "1 added, 1 changed, 1 removed, 2 unchanged"),
                text.toString().lines().toList());
    }

    @Test
    void kafkaScopesAndUnknownSectionsAreComparedToo() throws IOException {
        JsonNode current = json("{'kafka': {'prefixes': {'orders.': {'onExceed': 'delay'}}}, 'future': {'x': 1}}");
        JsonNode proposed =
                json("{'kafka': {'prefixes': {'orders.': {'onExceed': 'reject'}}, 'clients': {'billing': {}}},"
                        + " 'future': {'x': 2}}");
        LimitsDiff diff = LimitsDiff.between(Scopes.SERVED, current, proposed);
        assertEquals(
                List.of("kafka-prefix orders.", "future", "kafka-client billing"),
                diff.changes().stream().map(LimitsDiff.Change::label).toList());
        assertEquals(List.of("x: 1 -> 2"), diff.changes().get(1).details());
    }

    @Test
    void equalDocumentsHaveNoChanges() throws IOException {
        JsonNode document = json("{'namespaces': {'public/default': {'onExceed': 'delay'}}}");
        LimitsDiff diff = LimitsDiff.between(Scopes.SERVED, document, document.deepCopy());
        assertTrue(diff.isEmpty());
        assertEquals("0 added, 0 changed, 0 removed, 1 unchanged", diff.summary());
    }
}
