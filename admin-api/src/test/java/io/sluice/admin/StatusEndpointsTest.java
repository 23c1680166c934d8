package io.sluice.admin;

import com.fasterxml.jackson.databind.JsonNode;
import io.sluice.pulsar.scopes.PulsarScopes;
import io.sluice.status.ClientIdentity;
import io.sluice.status.Throttle;
import io.sluice.status.ThrottleSubject;
import io.sluice.testing.LeakCheck;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Instant;

import static io.sluice.admin.AdminFixture.error;
import static io.sluice.admin.AdminFixture.json;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

@ExtendWith(LeakCheck.class)
class StatusEndpointsTest {

    @TempDir
    Path dir;

    private AdminFixture admin;

    @BeforeEach
    void start() throws IOException {
        admin = AdminFixture.start(dir);
    }

    @AfterEach
    void stop() {
        admin.close();
    }

    @Test
    void nobodyThrottledIsAnEmptyList() {
        HttpResponse<String> response = admin.get("/api/v1/throttled");

        assertEquals(200, response.statusCode());
        assertEquals(
                "application/json",
                response.headers().firstValue("Content-Type").orElseThrow());
        assertTrue(json(response).isArray());
        assertEquals(0, json(response).size());
    }

    @Test
    void throttledListsProducersAndConsumersWithTheirHeldSends() {
        Throttle producer = admin.ledger.begin(
                new ThrottleSubject(
                        "pulsar",
                        "10.0.0.7:50412",
                        "persistent://public/default/orders",
                        ClientIdentity.of(PulsarScopes.ROLE_FIELD.of("alice"), PulsarScopes.PRODUCER_ID.of(3L))),
                "topic",
                "publish messagesPerSecond 500.0",
                "delay");
        producer.holding(12, 3400);
        admin.ledger.begin(
                new ThrottleSubject(
                        "pulsar",
                        "10.0.0.8:50999",
                        "persistent://public/default/orders",
                        ClientIdentity.of(PulsarScopes.CONSUMER_ID.of(9L))),
                "namespace",
                "dispatch messagesPerSecond 10.0",
                "delay");
        Throttle over = admin.ledger.begin(
                new ThrottleSubject(
                        "pulsar",
                        "10.0.0.9:1",
                        "persistent://public/default/old",
                        ClientIdentity.of(PulsarScopes.PRODUCER_ID.of(1L))),
                "topic",
                "x",
                "reject");
        admin.ledger.end(over);

        JsonNode list = json(admin.get("/api/v1/throttled"));

        assertEquals(2, list.size());
        JsonNode first = list.get(0);
        assertEquals("10.0.0.7:50412", first.get("connection").asText());
        assertEquals(3, first.get("producerId").asLong());
        assertFalse(first.has("consumerId"));
        assertEquals("alice", first.get("role").asText(), "the connection's role");
        assertFalse(first.has("principal"));
        assertEquals("persistent://public/default/orders", first.get("topic").asText());
        assertEquals("topic", first.get("scope").asText());
        assertEquals("publish messagesPerSecond 500.0", first.get("reason").asText());
        assertEquals("delay", first.get("action").asText());
        Instant.parse(first.get("since").asText());
        assertEquals(12, first.get("heldMessages").asLong());
        assertEquals(3400, first.get("heldBytes").asLong());
        JsonNode second = list.get(1);
        assertEquals(9, second.get("consumerId").asLong());
        assertFalse(second.has("producerId"));
    }

    @Test
    void topicsListsLiveFiguresBusiestFirst() {
        admin.activity.meter("pulsar", "persistent://public/default/quiet").published(1, 10);
        admin.activity.meter("pulsar", "persistent://public/default/busy").published(100, 1000);
        admin.activity.meter("pulsar", "persistent://public/default/busy").held(2, 20);
        admin.activity.meter("pulsar", "persistent://public/default/busy").throttled();

        JsonNode list = json(admin.get("/api/v1/topics"));

        assertEquals(2, list.size());
        JsonNode busy = list.get(0);
        assertEquals("persistent://public/default/busy", busy.get("topic").asText());
        assertEquals(2, busy.get("heldMessages").asLong());
        assertEquals(20, busy.get("heldBytes").asLong());
        assertEquals(1, busy.get("throttleEvents").asLong());
        for (String rate : new String[] {
            "publishMessagesPerSecond", "publishBytesPerSecond", "dispatchMessagesPerSecond", "dispatchBytesPerSecond"
        }) {
            assertTrue(busy.get(rate).isNumber(), rate);
        }
        assertEquals(
                "persistent://public/default/quiet", list.get(1).get("topic").asText());
    }

    @Test
    void healthzIs200WhileServing() {
        HttpResponse<String> response = admin.get("/healthz");

        assertEquals(200, response.statusCode());
        assertEquals("serving", json(response).get("status").asText());
    }

    @Test
    void readyzFollowsTheReadinessSupplier() {
        assertEquals(200, admin.get("/readyz").statusCode());

        admin.ready.set(false);
        HttpResponse<String> notReady = admin.get("/readyz");
        assertEquals(503, notReady.statusCode());
        assertEquals("not ready", error(notReady));
        assertEquals(200, admin.get("/healthz").statusCode());

        admin.ready.set(true);
        assertEquals(200, admin.get("/readyz").statusCode());
    }
}
