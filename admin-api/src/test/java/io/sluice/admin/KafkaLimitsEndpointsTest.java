package io.sluice.admin;

import com.fasterxml.jackson.databind.JsonNode;
import io.sluice.kafka.scopes.KafkaScopes;
import io.sluice.limits.Limit;
import io.sluice.limits.LimitsJson;
import io.sluice.limits.OnExceed;
import io.sluice.limits.RateLimit;
import io.sluice.pulsar.scopes.PulsarScopes;
import io.sluice.status.ClientIdentity;
import io.sluice.status.ThrottleSubject;
import io.sluice.testing.LeakCheck;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.io.IOException;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

import static io.sluice.admin.AdminFixture.error;
import static io.sluice.admin.AdminFixture.json;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The Kafka scopes of the limits API, which exist before any Kafka traffic flows. */
@ExtendWith(LeakCheck.class)
class KafkaLimitsEndpointsTest {

    private static final String LIMIT = """
            {"publish": {"messagesPerSecond": 100}, "dispatch": {"bytesPerSecond": 1048576}, "onExceed": "reject"}""";
    private static final Limit EXPECTED = Limit.publish(new RateLimit(100.0, null, null, null))
            .withDispatch(new RateLimit(null, 1048576.0, null, null))
            .withOnExceed(OnExceed.REJECT);

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

    @ParameterizedTest
    @CsvSource({
        "topics,   orders,                 orders",
        "prefixes, team-a.,                team-a.",
        "clients,  billing-service,        billing-service",
        "clients,  billing%2Fservice%20eu, billing/service eu",
    })
    void eachKafkaScopeIsSetReadPersistedAndRemoved(String section, String inPath, String name) throws IOException {
        String path = "/api/v1/limits/kafka/" + section + "/" + inPath;

        HttpResponse<String> put = admin.put(path, LIMIT);
        assertEquals(200, put.statusCode(), put.body());
        assertEquals(EXPECTED, LimitsJson.parseLimit(put.body().getBytes(StandardCharsets.UTF_8)));
        JsonNode file = AdminFixture.JSON.readTree(admin.fileBytes());
        assertEquals(
                100.0,
                file.at("/kafka/" + section)
                        .get(name)
                        .at("/publish/messagesPerSecond")
                        .asDouble());
        assertEquals(EXPECTED, LimitsJson.parseLimit(admin.get(path).body().getBytes(StandardCharsets.UTF_8)));
        assertTrue(json(admin.get("/api/v1/limits")).at("/kafka/" + section).has(name));

        assertEquals(204, admin.delete(path).statusCode());
        assertEquals(404, admin.get(path).statusCode());
        assertEquals(404, admin.delete(path).statusCode());
        assertFalse(AdminFixture.JSON
                .readTree(admin.fileBytes())
                .at("/kafka/" + section)
                .has(name));
    }

    @Test
    void aKafkaTopicLimitIsNotAPulsarOne() {
        assertEquals(200, admin.put("/api/v1/limits/kafka/topics/orders", LIMIT).statusCode());
        assertTrue(admin.engine.limits().limitsOf(PulsarScopes.TOPIC).isEmpty());
        assertEquals(EXPECTED, admin.engine.limits().limitsOf(KafkaScopes.TOPIC).get("orders"));
        assertEquals("no limit for kafka prefix orders", error(admin.get("/api/v1/limits/kafka/prefixes/orders")));
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "/api/v1/limits/kafka/topics/a%20b      | topic: must be a Kafka topic name of 1 to 249 characters [a-zA-Z0-9._-], not . or .., got \"a b\"",
                "/api/v1/limits/kafka/topics/..         | topic: must be a Kafka topic name",
                "/api/v1/limits/kafka/prefixes/team%2Fa | prefix: must be a topic name prefix of 1 to 249 characters [a-zA-Z0-9._-], got \"team/a\"",
            })
    void badNamesAre400NamingTheParameterAndChangeNothing(String path, String message) throws IOException {
        byte[] before = admin.fileBytes();
        HttpResponse<String> put = admin.put(path, LIMIT);
        assertEquals(400, put.statusCode());
        assertTrue(error(put).startsWith(message), error(put));
        assertEquals(new String(before, StandardCharsets.UTF_8), new String(admin.fileBytes(), StandardCharsets.UTF_8));
    }

    @Test
    void aClientIdOver255CharactersIs400() {
        HttpResponse<String> put = admin.put("/api/v1/limits/kafka/clients/" + "c".repeat(256), LIMIT);
        assertEquals(400, put.statusCode());
        assertTrue(error(put).startsWith("clientId: must be a client id of 1 to 255 characters"), error(put));
        assertEquals(
                200,
                admin.put("/api/v1/limits/kafka/clients/" + "c".repeat(255), LIMIT)
                        .statusCode());
    }

    @Test
    void aWholeDocumentWithAKafkaSectionIsReplacedAndValidated() {
        HttpResponse<String> put = admin.put("/api/v1/limits", """
                {"kafka": {"prefixes": {"team-a.": {"publish": {"bytesPerSecond": 10485760}}}}}""");
        assertEquals(200, put.statusCode(), put.body());
        assertEquals(
                10485760.0,
                admin.engine
                        .limits()
                        .limitsOf(KafkaScopes.PREFIX)
                        .get("team-a.")
                        .publish()
                        .bytesPerSecond());

        HttpResponse<String> bad = admin.put("/api/v1/limits", "{\"kafka\": {\"clients\": {\"\": {}}}}");
        assertEquals(400, bad.statusCode());
        assertTrue(error(bad).startsWith("kafka.clients[\"\"]: must be a client id"), error(bad));
        assertNull(admin.engine.limits().limitsOf(KafkaScopes.CLIENT).get(""));
    }

    @Test
    void throttledAndTopicsEntriesNameTheirProtocol() {
        admin.ledger.begin(
                new ThrottleSubject(
                        "kafka",
                        "10.0.0.7:1",
                        "orders",
                        ClientIdentity.of(
                                KafkaScopes.CLIENT_ID.of("billing"), KafkaScopes.PRINCIPAL_FIELD.of("User:alice"))),
                "prefix",
                "publish_messages",
                "reject");
        admin.activity.meter("kafka", "orders").published(10, 100);

        JsonNode throttled = json(admin.get("/api/v1/throttled")).get(0);
        assertEquals("kafka", throttled.get("protocol").asText());
        assertEquals("billing", throttled.get("clientId").asText());
        assertEquals("User:alice", throttled.get("principal").asText());
        assertFalse(throttled.has("role"), "a Kafka entry has no role");
        assertEquals("orders", throttled.get("topic").asText());
        assertEquals("prefix", throttled.get("scope").asText());
        assertFalse(throttled.has("producerId"));
        JsonNode topic = json(admin.get("/api/v1/topics")).get(0);
        assertEquals("kafka", topic.get("protocol").asText());
        assertEquals("orders", topic.get("topic").asText());
    }
}
