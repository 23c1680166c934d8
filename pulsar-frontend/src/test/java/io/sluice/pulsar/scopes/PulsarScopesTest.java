package io.sluice.pulsar.scopes;

import io.sluice.limits.Limit;
import io.sluice.limits.LimitsDocument;
import io.sluice.limits.LimitsJson;
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
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Pulsar's scope kinds: their chain, their names in the limits document and in REST paths, their ids. */
class PulsarScopesTest {

    private static final ScopeCatalogue CATALOGUE = ScopeCatalogue.of(PulsarScopes.DECLARED);

    private static ScopeRef ref(ScopeKind kind, String name) {
        return new ScopeRef(kind, name);
    }

    private static LimitsDocument parse(String json) {
        return LimitsJson.parseDocument(json.getBytes(StandardCharsets.UTF_8), CATALOGUE);
    }

    @Test
    void aPulsarPartitionFallsUnderItsTopicNamespaceAndTenant() {
        assertEquals(
                List.of(
                        ref(PulsarScopes.TOPIC, "persistent://t/n/x-partition-2"),
                        ref(PulsarScopes.TOPIC, "persistent://t/n/x"),
                        ref(PulsarScopes.NAMESPACE, "t/n"),
                        ref(PulsarScopes.TENANT, "t")),
                PulsarScopes.topic("persistent://t/n/x-partition-2").scopes(LimitsDocument.empty()));
        assertEquals(
                List.of(
                        ref(PulsarScopes.TOPIC, "non-persistent://t/n/x"),
                        ref(PulsarScopes.NAMESPACE, "t/n"),
                        ref(PulsarScopes.TENANT, "t")),
                PulsarScopes.topic("non-persistent://t/n/x").scopes(LimitsDocument.empty()));
        assertEquals(
                List.of(), PulsarScopes.topic("not a topic").scopes(LimitsDocument.empty()), "the proxy scope alone");
    }

    @Test
    void aConnectionsRoleComesAfterTheTenantAndEachRoleWithoutAnEntryHasTheDefaultInABucketOfItsOwn() {
        assertEquals(
                List.of(
                        ref(PulsarScopes.TOPIC, "persistent://t/n/x"),
                        ref(PulsarScopes.NAMESPACE, "t/n"),
                        ref(PulsarScopes.TENANT, "t"),
                        ref(PulsarScopes.ROLE, "alice")),
                PulsarScopes.topic("persistent://t/n/x", "alice").scopes(LimitsDocument.empty()));
        LimitsDocument limits = parse("{\"roles\": {\"*\": {\"publish\": {\"messagesPerSecond\": 10}},"
                + " \"alice\": {\"publish\": {\"messagesPerSecond\": 5}}}}");
        long[] now = {1_000_000_000L};
        QuotaEngine engine = new QuotaEngine(limits, () -> now[0]);
        QuotaDecision decision = new QuotaDecision();
        assertEquals(5, drain(engine.publishPath(PulsarScopes.topic("persistent://t/n/x", "alice")), now[0], decision));
        assertEquals(10, drain(engine.publishPath(PulsarScopes.topic("persistent://t/n/x", "bob")), now[0], decision));
        assertEquals(ref(PulsarScopes.ROLE, "bob"), decision.scope());
        assertEquals(
                10, drain(engine.publishPath(PulsarScopes.topic("persistent://t/n/y", "carol")), now[0], decision));
        assertEquals(
                1000,
                drain(engine.publishPath(PulsarScopes.topic("persistent://t/n/x", null)), now[0], decision),
                "a connection without a role has no role scope");
        assertThrows(InvalidSettingsException.class, () -> parse("{\"roles\": {\"a\\u0007b\": {}}}"));
    }

    private static int drain(QuotaPath path, long nowNanos, QuotaDecision decision) {
        int admitted = 0;
        while (admitted < 1000 && path.tryAcquire(nowNanos, 1, 1, decision)) {
            admitted++;
        }
        return admitted;
    }

    @Test
    void aNamespacesTopicListFallsUnderTheNamespaceItsTenantAndTheRole() {
        assertEquals(
                List.of(
                        ref(PulsarScopes.NAMESPACE, "t/n"),
                        ref(PulsarScopes.TENANT, "t"),
                        ref(PulsarScopes.ROLE, "alice")),
                PulsarScopes.namespace("t/n", "alice").scopes(LimitsDocument.empty()));
        assertEquals(
                List.of(ref(PulsarScopes.ROLE, "alice")),
                PulsarScopes.namespace("not a namespace", "alice").scopes(LimitsDocument.empty()),
                "a name the broker refuses has neither");
        assertEquals(List.of(), PulsarScopes.namespace("t/n/x/y", null).scopes(LimitsDocument.empty()));
    }

    @Test
    void theChainIsInTheKindsRankOrder() {
        List<ScopeRef> chain =
                PulsarScopes.topic("persistent://t/n/x-partition-2").scopes(LimitsDocument.empty());
        for (int i = 1; i < chain.size(); i++) {
            assertTrue(chain.get(i - 1).kind().rank() <= chain.get(i).kind().rank(), chain.toString());
        }
        assertTrue(PulsarScopes.TENANT.rank() < ScopeKind.PROXY.rank());
    }

    @Test
    void aTopicsOwnScopesAreItselfAndItsPartitionedTopic() {
        assertEquals(
                List.of(
                        ref(PulsarScopes.TOPIC, "persistent://t/n/x-partition-2"),
                        ref(PulsarScopes.TOPIC, "persistent://t/n/x")),
                CATALOGUE.topicScopes("pulsar", "persistent://t/n/x-partition-2"));
        assertEquals(
                List.of(ref(PulsarScopes.TOPIC, "persistent://t/n/x")),
                CATALOGUE.topicScopes("pulsar", "persistent://t/n/x"));
        assertEquals(List.of(), CATALOGUE.topicScopes("pulsar", "x"));
    }

    @Test
    void theKindsKeepTheIdsTheClusterStoreKnowsThemBy() {
        assertEquals(
                List.of("pulsar_topic", "pulsar_namespace", "pulsar_tenant", "pulsar_role"),
                PulsarScopes.DECLARED.kinds().stream().map(ScopeKind::id).toList());
        assertEquals(
                List.of("topic", "namespace", "tenant", "role"),
                PulsarScopes.DECLARED.kinds().stream().map(ScopeKind::cliName).toList());
        assertEquals(
                List.of("topics", "namespaces", "tenants", "roles"),
                PulsarScopes.DECLARED.kinds().stream().map(ScopeKind::fieldPath).toList());
    }

    @Test
    void eachKindsExampleIsValidAndSplitsIntoItsRestParameters() {
        for (ScopeKind kind : PulsarScopes.DECLARED.kinds()) {
            kind.checkName(kind.example());
            assertEquals(
                    kind.example(), kind.nameTemplate().join(kind.nameTemplate().split(kind.example())));
        }
        assertEquals(
                Map.of("domain", "persistent", "tenant", "public", "namespace", "default", "topic", "orders"),
                PulsarScopes.TOPIC.nameTemplate().split("persistent://public/default/orders"));
        assertNull(PulsarScopes.NAMESPACE.nameTemplate().split("public"));
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "topics     | persistent://a/b                | must be a topic name",
                "topics     | persistent://a/b/c/d            | must be a topic name",
                "topics     | persistent://a//c               | must be a topic name",
                "topics     | persistent:///b/c               | must be a topic name",
                "topics     | persistent://a/b/               | must be a topic name",
                "topics     | persistant://a/b/c              | must be a topic name",
                "topics     | a/b/c                           | must be a topic name",
                "topics     | orders                          | must be a topic name",
                "topics     | persistent://a b/c/d            | must be a topic name",
                "namespaces | public                          | must be a namespace name tenant/namespace",
                "namespaces | public/default/x                | must be a namespace name tenant/namespace",
                "namespaces | /default                        | must be a namespace name tenant/namespace",
                "namespaces | public/                         | must be a namespace name tenant/namespace",
                "tenants    | a/b                             | must be a tenant name",
                "tenants    | ''                              | must be a tenant name",
                "tenants    | 'white space'                   | must be a tenant name",
            })
    void rejectsBadScopeNames(String field, String name, String problem) {
        String json = "{\"" + field + "\": {\"" + name + "\": {}}}";
        String got =
                assertThrows(InvalidSettingsException.class, () -> parse(json)).getMessage();
        assertTrue(got.startsWith(field + "[\"" + name + "\"]: " + problem), got);
        assertTrue(got.endsWith(", got \"" + name + "\""), got);
    }

    @Test
    void acceptsEveryValidNameForm() {
        LimitsDocument doc = parse("""
                {"topics": {"persistent://a/b/c": {}, "non-persistent://a/b/c": {}, "persistent://a/b/c-partition-7": {},
                            "persistent://my-tenant/ns.v2/topic:with=odd_chars.and spaces": {}},
                 "namespaces": {"a/b": {}, "my-tenant/ns.v2": {}},
                 "tenants": {"a": {}, "my_tenant-1": {}}}""");
        assertEquals(4, doc.limitsOf(PulsarScopes.TOPIC).size());
        assertEquals(2, doc.limitsOf(PulsarScopes.NAMESPACE).size());
        assertEquals(2, doc.limitsOf(PulsarScopes.TENANT).size());
        assertEquals(
                "topics[\"bad\"]: must be a topic name persistent://tenant/namespace/topic"
                        + " or non-persistent://tenant/namespace/topic, got \"bad\"",
                assertThrows(
                                InvalidSettingsException.class,
                                () -> doc.withLimit(ref(PulsarScopes.TOPIC, "bad"), Limit.NONE))
                        .getMessage());
    }
}
