package io.sluice.admin;

import com.fasterxml.jackson.databind.JsonNode;
import io.sluice.kafka.scopes.KafkaScopes;
import io.sluice.limits.Limit;
import io.sluice.limits.LimitsJson;
import io.sluice.limits.OnExceed;
import io.sluice.status.ClientIdentity;
import io.sluice.status.ThrottleSubject;
import io.sluice.testing.LeakCheck;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

import static io.sluice.admin.AdminFixture.error;
import static io.sluice.admin.AdminFixture.json;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code /api/v1/limits/kafka/groups/{group}}: a consumer group's (or a glob's) joins and commits a minute. */
@ExtendWith(LeakCheck.class)
class GroupLimitsEndpointsTest {

    private static final String LIMIT = "{\"joinsPerMinute\": 10, \"commitsPerMinute\": 600, \"onExceed\": \"reject\"}";
    private static final Limit EXPECTED =
            Limit.joinsPerMinute(10.0).withCommitsPerMinute(600.0).withOnExceed(OnExceed.REJECT);

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
    void aGlobIsSetByItsEncodedNameAndTheDefaultByStar() throws IOException {
        HttpResponse<String> put = admin.put("/api/v1/limits/kafka/groups/orders-%2A", LIMIT);
        assertEquals(200, put.statusCode(), put.body());
        assertEquals(EXPECTED, LimitsJson.parseLimit(put.body().getBytes(StandardCharsets.UTF_8)));
        assertEquals(EXPECTED, admin.engine.limits().limitsOf(KafkaScopes.GROUP).get("orders-*"));
        assertEquals(
                10,
                json(admin.get("/api/v1/limits"))
                        .at("/kafka/groups/orders-*/joinsPerMinute")
                        .asInt());
        assertEquals(
                200,
                admin.put("/api/v1/limits/kafka/groups/%2A", "{\"joinsPerMinute\": 30}")
                        .statusCode());
        assertEquals(204, admin.delete("/api/v1/limits/kafka/groups/orders-%2A").statusCode());
        assertEquals(404, admin.get("/api/v1/limits/kafka/groups/orders-%2A").statusCode());
    }

    @Test
    void aPartTheScopeDoesNotTakeOrABadRateIsA400NamingIt() {
        HttpResponse<String> publish =
                admin.put("/api/v1/limits/kafka/groups/orders", "{\"publish\": {\"messagesPerSecond\": 10}}");
        assertEquals(400, publish.statusCode());
        assertTrue(
                error(publish).startsWith("publish: kafka.groups limits do not take it; it is a limit of "),
                error(publish));

        HttpResponse<String> topic = admin.put("/api/v1/limits/kafka/topics/orders", LIMIT);
        assertEquals(400, topic.statusCode());
        assertEquals(
                "joinsPerMinute: kafka.topics limits do not take it; it is a limit of kafka.groups only", error(topic));

        HttpResponse<String> negative = admin.put("/api/v1/limits/kafka/groups/orders", "{\"commitsPerMinute\": -1}");
        assertEquals(400, negative.statusCode());
        assertTrue(error(negative).startsWith("commitsPerMinute: must be a positive finite number"), error(negative));

        HttpResponse<String> control = admin.put("/api/v1/limits/kafka/groups/a%01b", LIMIT);
        assertEquals(400, control.statusCode());
        assertTrue(error(control).startsWith("group: must be a consumer group id or glob"), error(control));
        assertTrue(admin.engine.limits().limitsOf(KafkaScopes.GROUP).isEmpty(), "nothing changed");
    }

    @Test
    void aGroupsThrottleNamesItsGroupAndNoTopic() {
        admin.ledger.begin(
                new ThrottleSubject(
                        "kafka",
                        "10.0.0.7:1",
                        null,
                        ClientIdentity.of(
                                KafkaScopes.CLIENT_ID.of("billing"),
                                KafkaScopes.PRINCIPAL_FIELD.of("User:alice"),
                                KafkaScopes.GROUP_ID.of("orders-eu"))),
                "group",
                "group_joins",
                "delay");

        JsonNode throttled = json(admin.get("/api/v1/throttled")).get(0);
        assertEquals("orders-eu", throttled.get("group").asText());
        assertFalse(throttled.has("topic"), "a group's throttle has no topic");
        assertEquals("group", throttled.get("scope").asText());
        assertEquals("group_joins", throttled.get("reason").asText());
        assertEquals("User:alice", throttled.get("principal").asText());
    }
}
