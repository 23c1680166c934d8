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
    private static final Limit LIMIT =
            Limit.publish(new RateLimit(100.0, null, null, null)).withOnExceed(OnExceed.REJECT);
    private static final Limit ANY = Limit.NONE;
    private static final String ANONYMOUS = KafkaScopes.ANONYMOUS;

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
                "{\"kafka\": {\"topic\": {}}}                  | kafka.topic: unknown field; known fields are clients, groups, prefixes, principals, topics",
                "{\"kafka\": []}                               | kafka: must be a JSON object, got an array",
                "{\"kafka\": {\"groups\": {\"\": {}}}}         | kafka.groups[\"\"]: must be a consumer group id or glob of 1 to 255 characters",
                "{\"kafka\": {\"groups\": {\"g\": {\"publish\": {}}}}} | kafka.groups[\"g\"].publish: kafka.groups limits do not take it",
                "{\"kafka\": {\"topics\": {\"t\": {\"joinsPerMinute\": 6}}}} | kafka.topics[\"t\"].joinsPerMinute: kafka.topics limits do not take it; it is a limit of kafka.groups only",
                "{\"kafka\": {\"groups\": {\"g\": {\"joinsPerMinute\": 0}}}} | kafka.groups[\"g\"].joinsPerMinute: must be a positive finite number",
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
                        ref(KafkaScopes.CLIENT, "billing"),
                        ref(KafkaScopes.PRINCIPAL, ANONYMOUS)),
                KafkaScopes.topic("team-a.orders.eu", "billing", ANONYMOUS).scopes(limits));
        assertEquals(
                List.of(
                        ref(KafkaScopes.TOPIC, "team-a.clicks"),
                        ref(KafkaScopes.PREFIX, "team-a"),
                        ref(KafkaScopes.PRINCIPAL, ANONYMOUS)),
                KafkaScopes.topic("team-a.clicks", null, ANONYMOUS).scopes(limits),
                "no client id, no client scope");
        assertEquals(
                List.of(
                        ref(KafkaScopes.TOPIC, "team-c.x"),
                        ref(KafkaScopes.CLIENT, "c"),
                        ref(KafkaScopes.PRINCIPAL, ANONYMOUS)),
                KafkaScopes.topic("team-c.x", "c", ANONYMOUS).scopes(limits));
        assertEquals(
                List.of(
                        ref(KafkaScopes.TOPIC, "team-b"),
                        ref(KafkaScopes.CLIENT, "c"),
                        ref(KafkaScopes.PRINCIPAL, ANONYMOUS)),
                KafkaScopes.topic("team-b", "c", ANONYMOUS).scopes(limits),
                "a prefix longer than the name does not match");
        assertEquals(
                List.of(ref(KafkaScopes.TOPIC, "x"), ref(KafkaScopes.PRINCIPAL, ANONYMOUS)),
                KafkaScopes.topic("x", "", ANONYMOUS).scopes(limits));
    }

    @Test
    void theKafkaPrefixFollowsLimitChanges() {
        var chain = KafkaScopes.topic("team-a.orders", "c", ANONYMOUS);
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
                        Limit.publish(new RateLimit(50.0, null, null, null)).withOnExceed(OnExceed.REJECT))
                .withLimit(ref(KafkaScopes.CLIENT, "billing"), Limit.publish(new RateLimit(80.0, null, null, null)))
                .withLimit(ScopeRef.PROXY, Limit.publish(new RateLimit(100.0, null, null, null)));
        long[] now = {1_000_000_000L};
        QuotaEngine engine = new QuotaEngine(limits, () -> now[0]);
        QuotaDecision decision = new QuotaDecision();

        assertEquals(
                50,
                drain(engine.publishPath(KafkaScopes.topic("team-a.orders", "billing", ANONYMOUS)), now[0], decision));
        assertEquals(ref(KafkaScopes.PREFIX, "team-a."), decision.scope());
        assertEquals("throttled: prefix team-a. exceeds 50.0 msg/s; retry after 1 ms", decision.rejectMessage());
        assertEquals(
                30,
                drain(engine.publishPath(KafkaScopes.topic("team-b.orders", "billing", ANONYMOUS)), now[0], decision),
                "the client has 30 left");
        assertEquals(KafkaScopes.CLIENT, decision.scope().kind());
        assertEquals(
                20,
                drain(engine.publishPath(KafkaScopes.topic("team-b.orders", "other", ANONYMOUS)), now[0], decision),
                "the proxy scope is shared by every client and protocol");
        assertEquals(ScopeRef.PROXY, decision.scope());
    }

    @Test
    void aPrincipalIsLimitedOverEveryClientIdAndTopic() {
        LimitsDocument limits = LimitsDocument.empty()
                .withLimit(ref(KafkaScopes.PRINCIPAL, "User:alice"), messages(200.0, OnExceed.DELAY));
        long[] now = {1_000_000_000L};
        QuotaEngine engine = new QuotaEngine(limits, () -> now[0]);
        QuotaDecision decision = new QuotaDecision();

        assertEquals(
                120, drain(engine.publishPath(KafkaScopes.topic("a", "app-1", "User:alice")), now[0], 120, decision));
        assertEquals(
                80,
                drain(engine.publishPath(KafkaScopes.topic("b", "app-2", "User:alice")), now[0], 1000, decision),
                "another client id and topic of alice's shares her bucket");
        assertEquals(ref(KafkaScopes.PRINCIPAL, "User:alice"), decision.scope());
        assertEquals(
                1000,
                drain(engine.publishPath(KafkaScopes.topic("a", "app-1", "User:bob")), now[0], 1000, decision),
                "bob is not alice");
        assertEquals(
                1000,
                drain(engine.publishPath(KafkaScopes.topic("a", "app-1", ANONYMOUS)), now[0], 1000, decision),
                "nor is a connection that has not authenticated");
    }

    @Test
    void theDefaultPrincipalGivesEachPrincipalABucketOfItsOwnAndAnEntryOfItsOwnWins() {
        LimitsDocument limits = LimitsDocument.empty()
                .withLimit(ref(KafkaScopes.PRINCIPAL, "*"), messages(300.0, OnExceed.DELAY))
                .withLimit(ref(KafkaScopes.PRINCIPAL, "User:alice"), messages(200.0, OnExceed.REJECT));
        long[] now = {1_000_000_000L};
        QuotaEngine engine = new QuotaEngine(limits, () -> now[0]);
        QuotaDecision decision = new QuotaDecision();

        assertEquals(200, drain(engine.publishPath(KafkaScopes.topic("a", "c", "User:alice")), now[0], 1000, decision));
        assertEquals(OnExceed.REJECT, decision.onExceed(), "alice's own entry decides, not the default's");
        assertEquals(300, drain(engine.publishPath(KafkaScopes.topic("a", "c", "User:bob")), now[0], 1000, decision));
        assertEquals(ref(KafkaScopes.PRINCIPAL, "User:bob"), decision.scope(), "bob's own bucket, named for him");
        assertEquals(300, drain(engine.publishPath(KafkaScopes.topic("a", "c", "User:carol")), now[0], 1000, decision));

        LimitsDocument withoutAlice = limits.withLimit(ref(KafkaScopes.PRINCIPAL, "User:alice"), null);
        engine.update(withoutAlice);
        now[0] += 1_000_000_000L;
        assertEquals(
                300,
                drain(engine.publishPath(KafkaScopes.topic("a", "c", "User:alice")), now[0], 1000, decision),
                "without her entry alice falls to the default, in her bucket, refilled for a second at 300/s");
    }

    @Test
    void theDefaultClientIdGivesEachClientIdABucketOfItsOwn() {
        LimitsDocument limits =
                LimitsDocument.empty().withLimit(ref(KafkaScopes.CLIENT, "*"), messages(50.0, OnExceed.DELAY));
        long[] now = {1_000_000_000L};
        QuotaEngine engine = new QuotaEngine(limits, () -> now[0]);
        QuotaDecision decision = new QuotaDecision();

        assertEquals(50, drain(engine.publishPath(KafkaScopes.topic("a", "one", ANONYMOUS)), now[0], 1000, decision));
        assertEquals(50, drain(engine.publishPath(KafkaScopes.topic("a", "two", ANONYMOUS)), now[0], 1000, decision));
        assertEquals(
                1000,
                drain(engine.publishPath(KafkaScopes.topic("a", null, ANONYMOUS)), now[0], 1000, decision),
                "a request without a client id has no client scope");
    }

    @Test
    void principalNamesAreOneTo255CharactersWithoutControlCharactersAndStarIsTheDefault() {
        LimitsDocument document = parse("{\"kafka\": {\"principals\": {\"User:alice\": {}, \"*\": {}}}}");
        assertEquals(2, document.limitsOf(KafkaScopes.PRINCIPAL).size());
        parse("{\"kafka\": {\"principals\": {\"" + "p".repeat(255) + "\": {}}}}");
        assertTrue(rejection("{\"kafka\": {\"principals\": {\"" + "p".repeat(256) + "\": {}}}}")
                .contains("1 to 255"));
        InvalidSettingsException e = assertThrows(
                InvalidSettingsException.class,
                () -> LimitsDocument.empty().withLimit(ref(KafkaScopes.PRINCIPAL, "User:a\nb"), LIMIT));
        assertTrue(e.path().startsWith("kafka.principals["), e.path());
        assertThrows(
                InvalidSettingsException.class,
                () -> LimitsDocument.empty().withLimit(ref(KafkaScopes.PRINCIPAL, ""), LIMIT));
        assertThrows(
                InvalidSettingsException.class,
                () -> LimitsDocument.empty().withLimit(ref(KafkaScopes.TOPIC, "*"), LIMIT),
                "a topic has no default");
    }

    private static Limit messages(double perSecond, OnExceed onExceed) {
        return Limit.publish(new RateLimit(perSecond, null, null, null)).withOnExceed(onExceed);
    }

    private static int drain(QuotaPath path, long nowNanos, int most, QuotaDecision decision) {
        int admitted = 0;
        while (admitted < most && path.tryAcquire(nowNanos, 1, 1, decision)) {
            admitted++;
        }
        return admitted;
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
                List.of("kafka_topic", "kafka_prefix", "kafka_client", "kafka_principal", "kafka_group"),
                KafkaScopes.DECLARED.kinds().stream().map(ScopeKind::id).toList());
        assertEquals(
                List.of("kafka-topic", "kafka-prefix", "kafka-client", "kafka-principal", "kafka-group"),
                KafkaScopes.DECLARED.kinds().stream().map(ScopeKind::cliName).toList());
        assertEquals(List.of(ref(KafkaScopes.TOPIC, "orders")), CATALOGUE.topicScopes("kafka", "orders"));
        for (ScopeKind kind : KafkaScopes.DECLARED.kinds()) {
            kind.checkName(kind.example());
        }
        assertNull(KafkaScopes.longestPrefix(LimitsDocument.empty(), "orders"));
    }
}
