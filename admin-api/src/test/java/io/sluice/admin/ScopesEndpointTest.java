package io.sluice.admin;

import com.fasterxml.jackson.databind.JsonNode;
import io.sluice.testing.LeakCheck;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code GET /api/v1/scopes}: the scopes the limits API serves, as the catalogue declares them. */
@ExtendWith(LeakCheck.class)
class ScopesEndpointTest {

    @TempDir
    Path dir;

    @Test
    void everyScopeIsListedInTheOrderOfTheDocumentWithItsRoute() throws IOException {
        try (AdminFixture admin = AdminFixture.start(dir)) {
            HttpResponse<String> response = admin.get("/api/v1/scopes");
            assertEquals(200, response.statusCode());
            JsonNode scopes = AdminFixture.json(response);

            List<String> lines = new ArrayList<>();
            for (JsonNode scope : scopes) {
                lines.add(
                        scope.path("scope").asText() + " " + scope.path("field").asText() + " "
                                + scope.path("path").asText() + " "
                                + scope.path("holds").asText());
            }
            assertEquals(
                    List.of(
                            "topic topics /api/v1/limits/topics/{domain}/{tenant}/{namespace}/{topic} limit",
                            "namespace namespaces /api/v1/limits/namespaces/{tenant}/{namespace} limit",
                            "tenant tenants /api/v1/limits/tenants/{tenant} limit",
                            "role roles /api/v1/limits/roles/{role} limit",
                            "ip ips /api/v1/limits/ips/{cidr} limit",
                            "proxy proxy /api/v1/limits/proxy limit",
                            "connection connection /api/v1/limits/connection connection",
                            "kafka-topic kafka.topics /api/v1/limits/kafka/topics/{topic} limit",
                            "kafka-prefix kafka.prefixes /api/v1/limits/kafka/prefixes/{prefix} limit",
                            "kafka-client kafka.clients /api/v1/limits/kafka/clients/{clientId} limit",
                            "kafka-principal kafka.principals /api/v1/limits/kafka/principals/{principal} limit",
                            "kafka-group kafka.groups /api/v1/limits/kafka/groups/{group} limit"),
                    lines);
            assertEquals(AdminFixture.JSON.readTree("""
                    {"scope": "topic", "protocol": "pulsar", "label": "topic", "field": "topics",
                     "path": "/api/v1/limits/topics/{domain}/{tenant}/{namespace}/{topic}",
                     "nameTemplate": "{domain}://{tenant}/{namespace}/{topic}",
                     "example": "persistent://public/default/orders",
                     "description": "one topic (the key domain://tenant/namespace/topic in the document)",
                     "holds": "limit"}"""), scopes.get(0));
            assertEquals(AdminFixture.JSON.readTree("""
                    {"scope": "proxy", "label": "proxy", "field": "proxy", "path": "/api/v1/limits/proxy",
                     "description": "the whole proxy (all topics together)", "holds": "limit"}"""), scopes.get(5));
            assertEquals(AdminFixture.JSON.readTree("""
                    {"scope": "ip", "label": "ip", "field": "ips", "path": "/api/v1/limits/ips/{cidr}",
                     "nameTemplate": "{cidr}", "example": "10.1.0.0/16",
                     "description": "one block of client addresses (all its connections together), or each address (\\"*\\")",
                     "defaultName": "*", "holds": "limit"}"""), scopes.get(4));
            assertEquals("kafka", scopes.get(9).path("protocol").asText());
            assertEquals("client", scopes.get(9).path("label").asText());
            assertEquals("{clientId}", scopes.get(9).path("nameTemplate").asText());
            assertEquals("*", scopes.get(9).path("defaultName").asText(), "each client id without an entry");
            assertEquals("*", scopes.get(3).path("defaultName").asText(), "each role without an entry");
            assertEquals("*", scopes.get(10).path("defaultName").asText(), "each principal without an entry");
            assertEquals("*", scopes.get(11).path("defaultName").asText(), "each group without an entry");
            assertEquals("orders-*", scopes.get(11).path("example").asText());
            assertTrue(scopes.get(0).path("defaultName").isMissingNode(), "a topic has no default");
        }
    }

    @Test
    void theListNeedsTheAdminToken() throws IOException {
        try (AdminFixture admin = AdminFixture.withToken(dir, "secret")) {
            assertEquals(200, admin.get("/api/v1/scopes").statusCode());
            assertEquals(
                    401,
                    admin.send(java.net.http.HttpRequest.newBuilder(admin.uri("/api/v1/scopes"))
                                    .GET()
                                    .build())
                            .statusCode());
        }
    }
}
