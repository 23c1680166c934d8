package io.sluice.limits;

import io.sluice.settings.InvalidSettingsException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The {@code kafka} section of the limits document and the files written before it existed. */
class KafkaLimitsTest {

    private static final Limit LIMIT = new Limit(new RateLimit(100.0, null, null), null, OnExceed.REJECT);

    private static LimitsDocument parse(String json) {
        return LimitsJson.parseDocument(json.getBytes(StandardCharsets.UTF_8));
    }

    private static String rejection(String json) {
        return assertThrows(InvalidSettingsException.class, () -> parse(json)).getMessage();
    }

    @Test
    void aFileWrittenByTheFirstReleaseLoadsUnchanged() throws IOException {
        byte[] old;
        try (InputStream in = KafkaLimitsTest.class.getResourceAsStream("limits-file-0.1.0.json")) {
            old = in.readAllBytes();
        }
        LimitsDocument doc = LimitsJson.parseDocument(old);
        assertEquals(3, doc.topics().size());
        assertEquals(
                500.0,
                doc.topics().get("persistent://public/default/orders").publish().messagesPerSecond());
        assertEquals(
                OnExceed.NOTIFY,
                doc.topics().get("non-persistent://acme/metrics/cpu").onExceed());
        assertEquals(2.0, doc.namespaces().get("public/default").publish().burstSeconds());
        assertEquals(5000.0, doc.tenants().get("public").dispatch().messagesPerSecond());
        assertEquals(100000.0, doc.proxy().publish().messagesPerSecond());
        assertEquals(new ConnectionLimits(50_000, 33_554_432), doc.connection());
        assertEquals(KafkaLimits.NONE, doc.kafka());
        assertEquals(doc, LimitsJson.parseDocument(LimitsJson.write(doc)), "written back, it reads the same");
    }

    @Test
    void readsTopicsPrefixesAndClients() {
        LimitsDocument doc = parse("""
                {"kafka": {
                  "topics":   {"orders": {"publish": {"messagesPerSecond": 100}, "onExceed": "reject"}},
                  "prefixes": {"team-a.": {"publish": {"bytesPerSecond": 1048576}}},
                  "clients":  {"billing service/1": {"dispatch": {"messagesPerSecond": 5}}}
                }}""");
        assertEquals(LIMIT, doc.limitOf(new ScopeRef(ScopeKind.KAFKA_TOPIC, "orders")));
        assertEquals(
                1048576.0,
                doc.limitOf(new ScopeRef(ScopeKind.KAFKA_PREFIX, "team-a."))
                        .publish()
                        .bytesPerSecond());
        assertEquals(
                5.0,
                doc.limitOf(new ScopeRef(ScopeKind.KAFKA_CLIENT, "billing service/1"))
                        .dispatch()
                        .messagesPerSecond());
        assertEquals(null, doc.limitOf(new ScopeRef(ScopeKind.PULSAR_TOPIC, "persistent://a/b/orders")));
        assertEquals(doc, LimitsJson.parseDocument(LimitsJson.write(doc)));
    }

    @Test
    void aKafkaTopicAndAPulsarTopicAreDifferentScopes() {
        LimitsDocument doc = LimitsDocument.empty()
                .withLimit(new ScopeRef(ScopeKind.KAFKA_TOPIC, "orders"), LIMIT)
                .withLimit(new ScopeRef(ScopeKind.KAFKA_CLIENT, "orders"), LIMIT);
        assertTrue(doc.topics().isEmpty());
        assertEquals(LIMIT, doc.kafka().topics().get("orders"));
        assertEquals(LIMIT, doc.kafka().clients().get("orders"));
        LimitsDocument cleared = doc.withLimit(new ScopeRef(ScopeKind.KAFKA_TOPIC, "orders"), null)
                .withLimit(new ScopeRef(ScopeKind.KAFKA_CLIENT, "orders"), null);
        assertEquals(LimitsDocument.empty(), cleared);
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "{\"kafka\": {\"topics\": {\"a b\": {}}}}      | kafka.topics[\"a b\"]: must be a Kafka topic name of 1 to 249 characters [a-zA-Z0-9._-], not . or .., got \"a b\"",
                "{\"kafka\": {\"topics\": {\"..\": {}}}}       | kafka.topics[\"..\"]: must be a Kafka topic name",
                "{\"kafka\": {\"topics\": {\"\": {}}}}         | kafka.topics[\"\"]: must be a Kafka topic name",
                "{\"kafka\": {\"prefixes\": {\"team/a\": {}}}} | kafka.prefixes[\"team/a\"]: must be a topic name prefix",
                "{\"kafka\": {\"clients\": {\"\": {}}}}        | kafka.clients[\"\"]: must be a client id of 1 to 255 characters",
                "{\"kafka\": {\"clients\": {\"a\": null}}}     | kafka.clients[\"a\"]: must be a limit object, got null",
                "{\"kafka\": {\"topic\": {}}}                  | kafka.topic: unknown field; known fields are clients, prefixes, topics",
                "{\"kafka\": []}                               | kafka: must be a JSON object, got an array",
            })
    void badKafkaSectionsAreRejectedNamingTheField(String json, String message) {
        String got = rejection(json);
        assertTrue(got.startsWith(message), got);
    }

    @Test
    void namesAtTheLengthLimits() {
        String longest = "t".repeat(249);
        parse("{\"kafka\": {\"topics\": {\"" + longest + "\": {}}, \"clients\": {\"" + "c".repeat(255) + "\": {}}}}");
        assertTrue(rejection("{\"kafka\": {\"topics\": {\"" + longest + "t\": {}}}}")
                .contains("1 to 249"));
        assertTrue(rejection("{\"kafka\": {\"clients\": {\"" + "c".repeat(256) + "\": {}}}}")
                .contains("1 to 255"));
        InvalidSettingsException e = assertThrows(
                InvalidSettingsException.class,
                () -> LimitsDocument.empty().withLimit(new ScopeRef(ScopeKind.KAFKA_PREFIX, "a*"), LIMIT));
        assertEquals("kafka.prefixes[\"a*\"]", e.path());
    }
}
