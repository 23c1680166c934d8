package io.sluice.admin;

import io.sluice.limits.EventRate;
import io.sluice.limits.Limit;
import io.sluice.limits.LimitsJson;
import io.sluice.limits.ScopeKind;
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
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code /api/v1/limits/ips/{cidr}}: a block of client addresses' rate of new connections. */
@ExtendWith(LeakCheck.class)
class AddressLimitsEndpointsTest {

    private static final String LIMIT = "{\"connections\": {\"perSecond\": 10}}";
    private static final Limit EXPECTED = Limit.connections(new EventRate(10.0, 1.0));

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
    void aBlockIsSetByItsEncodedNameAndKeptCanonical() throws IOException {
        HttpResponse<String> put = admin.put("/api/v1/limits/ips/10.1.2.3%2F16", LIMIT);
        assertEquals(200, put.statusCode(), put.body());
        assertEquals(EXPECTED, LimitsJson.parseLimit(put.body().getBytes(StandardCharsets.UTF_8)));
        assertEquals(EXPECTED, admin.engine.limits().limitsOf(ScopeKind.IPS).get("10.1.0.0/16"));
        assertTrue(json(admin.get("/api/v1/limits")).at("/ips").has("10.1.0.0/16"));
        assertEquals(200, admin.get("/api/v1/limits/ips/10.1.0.0%2F16").statusCode(), "the same block");

        assertEquals(200, admin.put("/api/v1/limits/ips/%2A", LIMIT).statusCode());
        assertEquals(200, admin.put("/api/v1/limits/ips/2001:DB8::1", LIMIT).statusCode());
        assertTrue(admin.engine.limits().limitsOf(ScopeKind.IPS).containsKey("2001:db8::1/128"));

        assertEquals(204, admin.delete("/api/v1/limits/ips/10.1.9.9%2F16").statusCode(), "any address of the block");
        assertEquals(404, admin.get("/api/v1/limits/ips/10.1.0.0%2F16").statusCode());
    }

    @Test
    void aBadBlockOrAPartTheScopeDoesNotTakeIsA400NamingIt() {
        HttpResponse<String> bad = admin.put("/api/v1/limits/ips/10.1.0.0%2F33", LIMIT);
        assertEquals(400, bad.statusCode());
        assertTrue(error(bad).startsWith("cidr: must be a CIDR block"), error(bad));
        assertTrue(error(bad).contains("\"10.1.0.0/33\""), error(bad));

        HttpResponse<String> publish =
                admin.put("/api/v1/limits/ips/%2A", "{\"publish\": {\"messagesPerSecond\": 10}}");
        assertEquals(400, publish.statusCode());
        assertTrue(error(publish).startsWith("publish: ips limits do not take it; it is a limit of "), error(publish));

        HttpResponse<String> topic = admin.put("/api/v1/limits/tenants/public", LIMIT);
        assertEquals(400, topic.statusCode());
        assertEquals(
                "connections: tenants limits do not take it; it is a limit of roles, ips, kafka.clients, kafka.principals only",
                error(topic));
        assertTrue(admin.engine.limits().limitsOf(ScopeKind.IPS).isEmpty(), "nothing changed");
    }

    @Test
    void aRateOfRequestsIsTakenByAddressesIdentitiesAndTopicsOnly() {
        String requests = "{\"requests\": {\"perSecond\": 100, \"burstSeconds\": 2}}";
        Limit expected = Limit.requests(new EventRate(100.0, 2.0));
        for (String path : new String[] {
            "/api/v1/limits/ips/%2A",
            "/api/v1/limits/roles/alice",
            "/api/v1/limits/namespaces/public/default",
            "/api/v1/limits/kafka/clients/%2A",
            "/api/v1/limits/kafka/principals/User:alice",
            "/api/v1/limits/kafka/topics/orders",
            "/api/v1/limits/kafka/prefixes/orders.",
            "/api/v1/limits/proxy"
        }) {
            HttpResponse<String> put = admin.put(path, requests);
            assertEquals(200, put.statusCode(), path + ": " + put.body());
            assertEquals(expected, LimitsJson.parseLimit(put.body().getBytes(StandardCharsets.UTF_8)), path);
        }
        HttpResponse<String> group = admin.put("/api/v1/limits/kafka/groups/orders-%2A", requests);
        assertEquals(400, group.statusCode());
        assertTrue(
                error(group).startsWith("requests: kafka.groups limits do not take it; it is a limit of topics,"),
                error(group));
        assertTrue(error(group).contains("ips"), error(group));
        HttpResponse<String> zero = admin.put("/api/v1/limits/ips/%2A", "{\"requests\": {\"perSecond\": 0}}");
        assertEquals(400, zero.statusCode());
        assertTrue(error(zero).startsWith("requests.perSecond: must be a positive finite number"), error(zero));
    }
}
