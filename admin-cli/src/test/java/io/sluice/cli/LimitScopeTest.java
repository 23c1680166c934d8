package io.sluice.cli;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class LimitScopeTest {

    private static LimitScope scope(String name) {
        return Scopes.SERVED.parse(name);
    }

    @Test
    void eachScopeHasItsAdminApiPath() {
        assertEquals(
                "/api/v1/limits/topics/persistent/public/default/orders",
                scope("topic").path("persistent://public/default/orders"));
        assertEquals(
                "/api/v1/limits/topics/non-persistent/t/n/a%20b", scope("topic").path("non-persistent://t/n/a b"));
        assertEquals(
                "/api/v1/limits/namespaces/public/default", scope("namespace").path("public/default"));
        assertEquals("/api/v1/limits/tenants/public", scope("tenant").path("public"));
        assertEquals("/api/v1/limits/proxy", scope("proxy").path(null));
        assertEquals("/api/v1/limits/connection", scope("connection").path(null));
        assertEquals(
                "/api/v1/limits/kafka/topics/orders.v1", scope("kafka-topic").path("orders.v1"));
        assertEquals(
                "/api/v1/limits/kafka/prefixes/orders.", scope("kafka-prefix").path("orders."));
        assertEquals(
                "/api/v1/limits/kafka/clients/billing%2Feu%20caf%C3%A9",
                scope("kafka-client").path("billing/eu café"));
        assertEquals(
                "/api/v1/limits/kafka/clients/%2E%2E", scope("kafka-client").path(".."));
        assertEquals(
                "/api/v1/limits/kafka/principals/User%3Aalice",
                scope("kafka-principal").path("User:alice"));
        assertEquals(
                "/api/v1/limits/kafka/principals/%2A", scope("kafka-principal").path("*"), "the default");
        assertEquals("/api/v1/limits/roles/alice", scope("role").path("alice"));
        assertEquals("/api/v1/limits/kafka/clients/%2A", scope("kafka-client").path("*"));
        assertEquals("/api/v1/limits/ips/10.1.0.0%2F16", scope("ip").path("10.1.0.0/16"));
        assertEquals("/api/v1/limits/ips/%2A", scope("ip").path("*"));
        assertEquals(
                "/api/v1/limits/kafka/groups/orders-%2A", scope("kafka-group").path("orders-*"));
    }

    @Test
    void namesOfTheWrongShapeAreUsageErrors() {
        assertThrows(CliFailure.class, () -> scope("topic").path("orders"));
        assertThrows(CliFailure.class, () -> scope("topic").path("persistent://public/orders"));
        assertThrows(CliFailure.class, () -> scope("namespace").path("public"));
        assertThrows(CliFailure.class, () -> scope("namespace").path("public/"));
        assertThrows(CliFailure.class, () -> scope("namespace").path("public/default/x"));
        assertThrows(CliFailure.class, () -> Scopes.SERVED.parse("subscription"));
        assertEquals(scope("kafka-prefix"), Scopes.SERVED.parse("Kafka-Prefix"));
        assertEquals(
                "a topic is named in full, domain://tenant/namespace/topic, e.g. persistent://public/default/orders;"
                        + " got 'orders'",
                assertThrows(CliFailure.class, () -> scope("topic").path("orders"))
                        .getMessage());
    }
}
