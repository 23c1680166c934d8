package io.sluice.scopes;

import io.sluice.limits.Limit;
import io.sluice.limits.LimitsDocument;
import io.sluice.limits.ScopeKind;
import io.sluice.limits.ScopeRef;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

class ScopeModelsTest {

    private static final Limit ANY = new Limit(null, null, null);

    private static ScopeRef ref(ScopeKind kind, String name) {
        return new ScopeRef(kind, name);
    }

    @Test
    void aPulsarPartitionFallsUnderItsTopicNamespaceAndTenant() {
        assertEquals(
                List.of(
                        ref(ScopeKind.PULSAR_TOPIC, "persistent://t/n/x-partition-2"),
                        ref(ScopeKind.PULSAR_TOPIC, "persistent://t/n/x"),
                        ref(ScopeKind.PULSAR_NAMESPACE, "t/n"),
                        ref(ScopeKind.PULSAR_TENANT, "t")),
                PulsarScopes.topic("persistent://t/n/x-partition-2").scopes(LimitsDocument.empty()));
        assertEquals(
                List.of(
                        ref(ScopeKind.PULSAR_TOPIC, "non-persistent://t/n/x"),
                        ref(ScopeKind.PULSAR_NAMESPACE, "t/n"),
                        ref(ScopeKind.PULSAR_TENANT, "t")),
                PulsarScopes.topic("non-persistent://t/n/x").scopes(LimitsDocument.empty()));
        assertEquals(
                List.of(), PulsarScopes.topic("not a topic").scopes(LimitsDocument.empty()), "the proxy scope alone");
    }

    @Test
    void aKafkaTopicFallsUnderTheLongestPrefixWithALimitAndItsClient() {
        LimitsDocument limits = LimitsDocument.empty()
                .withLimit(ref(ScopeKind.KAFKA_PREFIX, "team-a"), ANY)
                .withLimit(ref(ScopeKind.KAFKA_PREFIX, "team-a.orders"), ANY)
                .withLimit(ref(ScopeKind.KAFKA_PREFIX, "team-b."), ANY);
        assertEquals(
                List.of(
                        ref(ScopeKind.KAFKA_TOPIC, "team-a.orders.eu"),
                        ref(ScopeKind.KAFKA_PREFIX, "team-a.orders"),
                        ref(ScopeKind.KAFKA_CLIENT, "billing")),
                KafkaScopes.topic("team-a.orders.eu", "billing").scopes(limits));
        assertEquals(
                List.of(ref(ScopeKind.KAFKA_TOPIC, "team-a.clicks"), ref(ScopeKind.KAFKA_PREFIX, "team-a")),
                KafkaScopes.topic("team-a.clicks", null).scopes(limits),
                "no client id, no client scope");
        assertEquals(
                List.of(ref(ScopeKind.KAFKA_TOPIC, "team-c.x"), ref(ScopeKind.KAFKA_CLIENT, "c")),
                KafkaScopes.topic("team-c.x", "c").scopes(limits));
        assertEquals(
                List.of(ref(ScopeKind.KAFKA_TOPIC, "team-b"), ref(ScopeKind.KAFKA_CLIENT, "c")),
                KafkaScopes.topic("team-b", "c").scopes(limits),
                "a prefix longer than the name does not match");
        assertEquals(
                List.of(ref(ScopeKind.KAFKA_TOPIC, "x")),
                KafkaScopes.topic("x", "").scopes(limits));
    }

    @Test
    void theKafkaPrefixFollowsLimitChanges() {
        var chain = KafkaScopes.topic("team-a.orders", "c");
        LimitsDocument before = LimitsDocument.empty().withLimit(ref(ScopeKind.KAFKA_PREFIX, "team-"), ANY);
        LimitsDocument after = before.withLimit(ref(ScopeKind.KAFKA_PREFIX, "team-a."), ANY);
        assertEquals(ref(ScopeKind.KAFKA_PREFIX, "team-"), chain.scopes(before).get(1));
        assertEquals(ref(ScopeKind.KAFKA_PREFIX, "team-a."), chain.scopes(after).get(1));
    }
}
