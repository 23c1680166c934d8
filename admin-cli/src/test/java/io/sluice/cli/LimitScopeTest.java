package io.sluice.cli;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class LimitScopeTest {

    @Test
    void eachScopeHasItsAdminApiPath() {
        assertEquals(
                "/api/v1/limits/topics/persistent/public/default/orders",
                LimitScope.TOPIC.path("persistent://public/default/orders"));
        assertEquals(
                "/api/v1/limits/topics/non-persistent/t/n/a%20b", LimitScope.TOPIC.path("non-persistent://t/n/a b"));
        assertEquals("/api/v1/limits/namespaces/public/default", LimitScope.NAMESPACE.path("public/default"));
        assertEquals("/api/v1/limits/tenants/public", LimitScope.TENANT.path("public"));
        assertEquals("/api/v1/limits/proxy", LimitScope.PROXY.path(null));
        assertEquals("/api/v1/limits/connection", LimitScope.CONNECTION.path(null));
        assertEquals("/api/v1/limits/kafka/topics/orders.v1", LimitScope.KAFKA_TOPIC.path("orders.v1"));
        assertEquals("/api/v1/limits/kafka/prefixes/orders.", LimitScope.KAFKA_PREFIX.path("orders."));
        assertEquals(
                "/api/v1/limits/kafka/clients/billing%2Feu%20caf%C3%A9",
                LimitScope.KAFKA_CLIENT.path("billing/eu café"));
        assertEquals("/api/v1/limits/kafka/clients/%2E%2E", LimitScope.KAFKA_CLIENT.path(".."));
    }

    @Test
    void namesOfTheWrongShapeAreUsageErrors() {
        assertThrows(CliFailure.class, () -> LimitScope.TOPIC.path("orders"));
        assertThrows(CliFailure.class, () -> LimitScope.TOPIC.path("persistent://public/orders"));
        assertThrows(CliFailure.class, () -> LimitScope.NAMESPACE.path("public"));
        assertThrows(CliFailure.class, () -> LimitScope.NAMESPACE.path("public/"));
        assertThrows(CliFailure.class, () -> LimitScope.parse("subscription"));
        assertEquals(LimitScope.KAFKA_PREFIX, LimitScope.parse("Kafka-Prefix"));
    }
}
