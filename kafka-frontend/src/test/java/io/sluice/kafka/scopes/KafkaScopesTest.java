package io.sluice.kafka.scopes;

import io.sluice.limits.Limit;
import io.sluice.limits.LimitsDocument;
import io.sluice.limits.LimitsJson;
import io.sluice.limits.OnExceed;
import io.sluice.limits.RateLimit;
import io.sluice.limits.ScopeCatalogue;
import io.sluice.limits.ScopeKind;
import io.sluice.limits.ScopeRef;
import io.sluice.quota.QuotaDecision;
import io.sluice.quota.QuotaEngine;
import io.sluice.quota.QuotaPath;
import io.sluice.settings.InvalidSettingsException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.nio.charset.StandardCharsets;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Kafka's scope kinds: the {@code kafka} section of the limits document, their chain and their ids. */
class KafkaScopesTest {

    private static final ScopeCatalogue CATALOGUE = ScopeCatalogue.of(KafkaScopes.DECLARED);
    private static final Limit LIMIT = new Limit(new RateLimit(100.0, null, null), null, OnExceed.REJECT);
    private static final Limit ANY = new Limit(null, null, null);

    private static LimitsDocument parse(String json) {
        return LimitsJson.parseDocument(json.getBytes(StandardCharsets.UTF_8), CATALOGUE);
    }

    private static String rejection(String json) {
        return assertThrows(InvalidSettingsException.class, () -> parse(json)).getMessage();
    }

    private static ScopeRef ref(ScopeKind kind, String name) {
        return new ScopeRef(kind, name);
    }

    @Test
    void readsTopicsPrefixesAndClients() {
        LimitsDocument doc = parse("""
                {"kafka": {
                  "topics":   {"orders": {"publish": {"messagesPerSecond": 100}, "onExceed": "reject"}},
                  "prefixes": {"team-a.": {"publish": {"bytesPerSecond": 1048576}}},
                  "clients":  {"billing service/1": {"dispatch": {"messagesPerSecond": 5}}}
                }}""");
        assertEquals(LIMIT, doc.limitOf(ref(KafkaScopes.TOPIC, "orders")));
        assertEquals(
                1048576.0,
                doc.limitOf(ref(KafkaScopes.PREFIX, "team-a.")).publish().bytesPerSecond());
        assertEquals(
                5.0,
                doc.limitOf(ref(KafkaScopes.CLIENT, "billing service/1"))
                        .dispatch()
                        .messagesPerSecond());
        assertEquals(doc, LimitsJson.parseDocument(LimitsJson.write(doc, CATALOGUE), CATALOGUE));
    }

    @Test
    void aKafkaTopicAndAClientOfTheSameNameAreDifferentScopes() {
        LimitsDocument doc = LimitsDocument.empty()
                .withLimit(ref(KafkaScopes.TOPIC, "orders"), LIMIT)
                .withLimit(ref(KafkaScopes.CLIENT, "orders"), LIMIT);
        assertEquals(LIMIT, doc.limitsOf(KafkaScopes.TOPIC).get("orders"));
        assertEquals(LIMIT, doc.limitsOf(KafkaScopes.CLIENT).get("orders"));
        assertTrue(doc.limitsOf(KafkaScopes.PREFIX).isEmpty());
        LimitsDocument cleared = doc.withLimit(ref(KafkaScopes.TOPIC, "orders"), null)
                .withLimit(ref(KafkaScopes.CLIENT, "orders"), null);
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
                () -> LimitsDocument.empty().withLimit(ref(KafkaScopes.PREFIX, "a*"), LIMIT));
        assertEquals("kafka.prefixes[\"a*\"]", e.path());
    }

    @Test
    void aKafkaTopicFallsUnderTheLongestPrefixWithALimitAndItsClient() {
        LimitsDocument limits = LimitsDocument.empty()
                .withLimit(ref(KafkaScopes.PREFIX, "team-a"), ANY)
                .withLimit(ref(KafkaScopes.PREFIX, "team-a.orders"), ANY)
                .withLimit(ref(KafkaScopes.PREFIX, "team-b."), ANY);
        assertEquals(
                List.of(
                        ref(KafkaScopes.TOPIC, "team-a.orders.eu"),
                        ref(KafkaScopes.PREFIX, "team-a.orders"),
                        ref(KafkaScopes.CLIENT, "billing")),
                KafkaScopes.topic("team-a.orders.eu", "billing").scopes(limits));
        assertEquals(
                List.of(ref(KafkaScopes.TOPIC, "team-a.clicks"), ref(KafkaScopes.PREFIX, "team-a")),
                KafkaScopes.topic("team-a.clicks", null).scopes(limits),
                "no client id, no client scope");
        assertEquals(
                List.of(ref(KafkaScopes.TOPIC, "team-c.x"), ref(KafkaScopes.CLIENT, "c")),
                KafkaScopes.topic("team-c.x", "c").scopes(limits));
        assertEquals(
                List.of(ref(KafkaScopes.TOPIC, "team-b"), ref(KafkaScopes.CLIENT, "c")),
                KafkaScopes.topic("team-b", "c").scopes(limits),
                "a prefix longer than the name does not match");
        assertEquals(
                List.of(ref(KafkaScopes.TOPIC, "x")), KafkaScopes.topic("x", "").scopes(limits));
    }

    @Test
    void theKafkaPrefixFollowsLimitChanges() {
        var chain = KafkaScopes.topic("team-a.orders", "c");
        LimitsDocument before = LimitsDocument.empty().withLimit(ref(KafkaScopes.PREFIX, "team-"), ANY);
        LimitsDocument after = before.withLimit(ref(KafkaScopes.PREFIX, "team-a."), ANY);
        assertEquals(ref(KafkaScopes.PREFIX, "team-"), chain.scopes(before).get(1));
        assertEquals(ref(KafkaScopes.PREFIX, "team-a."), chain.scopes(after).get(1));
    }

    @Test
    void aKafkaProduceMustFitItsTopicPrefixClientAndTheProxy() {
        LimitsDocument limits = LimitsDocument.empty()
                .withLimit(
                        ref(KafkaScopes.PREFIX, "team-a."),
                        new Limit(new RateLimit(50.0, null, null), null, OnExceed.REJECT))
                .withLimit(ref(KafkaScopes.CLIENT, "billing"), new Limit(new RateLimit(80.0, null, null), null, null))
                .withLimit(ScopeRef.PROXY, new Limit(new RateLimit(100.0, null, null), null, null));
        long[] now = {1_000_000_000L};
        QuotaEngine engine = new QuotaEngine(limits, () -> now[0]);
        QuotaDecision decision = new QuotaDecision();

        assertEquals(50, drain(engine.publishPath(KafkaScopes.topic("team-a.orders", "billing")), now[0], decision));
        assertEquals(ref(KafkaScopes.PREFIX, "team-a."), decision.scope());
        assertEquals("throttled: prefix team-a. exceeds 50.0 msg/s; retry after 1 ms", decision.rejectMessage());
        assertEquals(
                30,
                drain(engine.publishPath(KafkaScopes.topic("team-b.orders", "billing")), now[0], decision),
                "the client has 30 left");
        assertEquals(KafkaScopes.CLIENT, decision.scope().kind());
        assertEquals(
                20,
                drain(engine.publishPath(KafkaScopes.topic("team-b.orders", "other")), now[0], decision),
                "the proxy scope is shared by every client and protocol");
        assertEquals(ScopeRef.PROXY, decision.scope());
    }

    private static int drain(QuotaPath path, long nowNanos, QuotaDecision decision) {
        int admitted = 0;
        while (path.tryAcquire(nowNanos, 1, 1, decision)) {
            admitted++;
        }
        return admitted;
    }

    @Test
    void theKindsKeepTheIdsTheClusterStoreKnowsThemBy() {
        assertEquals(
                List.of("kafka_topic", "kafka_prefix", "kafka_client"),
                KafkaScopes.DECLARED.kinds().stream().map(ScopeKind::id).toList());
        assertEquals(
                List.of("kafka-topic", "kafka-prefix", "kafka-client"),
                KafkaScopes.DECLARED.kinds().stream().map(ScopeKind::cliName).toList());
        assertEquals(List.of(ref(KafkaScopes.TOPIC, "orders")), CATALOGUE.topicScopes("kafka", "orders"));
        for (ScopeKind kind : KafkaScopes.DECLARED.kinds()) {
            kind.checkName(kind.example());
        }
        assertNull(KafkaScopes.longestPrefix(LimitsDocument.empty(), "orders"));
    }
}
