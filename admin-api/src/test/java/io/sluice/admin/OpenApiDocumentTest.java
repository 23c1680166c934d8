package io.sluice.admin;

import com.fasterxml.jackson.databind.JsonNode;
import io.sluice.admin.audit.AuditTrail;
import io.sluice.admin.http.Route;
import io.sluice.admin.http.RouteTable;
import io.sluice.admin.openapi.OpenApiDocument;
import io.sluice.admission.AdmissionController;
import io.sluice.admission.AdmissionSettings;
import io.sluice.cluster.ClusterStatus;
import io.sluice.kafka.scopes.KafkaScopes;
import io.sluice.limits.LimitsDocument;
import io.sluice.limits.LimitsStore;
import io.sluice.limits.NameParameter;
import io.sluice.limits.NameRule;
import io.sluice.limits.NameTemplate;
import io.sluice.limits.OnExceed;
import io.sluice.limits.ProtocolScopes;
import io.sluice.limits.ScopeCatalogue;
import io.sluice.limits.ScopeKind;
import io.sluice.limits.ScopeRef;
import io.sluice.pulsar.scopes.PulsarScopes;
import io.sluice.quota.NanoClock;
import io.sluice.quota.QuotaEngine;
import io.sluice.status.IdentityField;
import io.sluice.status.ThrottleLedger;
import io.sluice.status.TopicActivity;
import io.sluice.testing.LeakCheck;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The OpenAPI document and the route table describe the same API. */
@ExtendWith(LeakCheck.class)
class OpenApiDocumentTest {

    private static final Set<String> OPERATIONS =
            Set.of("get", "put", "post", "delete", "patch", "head", "options", "trace");
    private static final Pattern PARAMETER = Pattern.compile("\\{([^}]+)}");

    @TempDir
    Path dir;

    @Test
    void everyRouteIsDocumentedAndEveryDocumentedOperationIsARoute() throws IOException {
        // With admission control, which adds the only optional routes.
        AdmissionController admission = new AdmissionController(AdmissionSettings.DEFAULTS, Map.of());
        try (AdminFixture admin = AdminFixture.withAdmission(dir, null, admission)) {
            assertEquals(
                    routes(admin.server.routes()),
                    documented(AdminFixture.JSON.readTree(OpenApiDocument.of(AdminFixture.SCOPES))));
        }
    }

    @Test
    void aThirdFrontEndsScopesAreRoutedAndDocumentedAlike() throws IOException {
        ScopeCatalogue catalogue = ScopeCatalogue.of(PulsarScopes.DECLARED, KafkaScopes.DECLARED, LINE);
        LimitsStore store = LimitsStore.open(
                dir.resolve("third.json"),
                catalogue,
                new QuotaEngine(LimitsDocument.empty(), NanoClock.SYSTEM)::update);
        AdmissionController admission = new AdmissionController(AdmissionSettings.DEFAULTS, Map.of());
        RouteTable table = AdminRoutes.table(
                store,
                new ThrottleLedger(Clock.systemUTC()),
                new TopicActivity(Duration.ofMinutes(1)),
                List.of(),
                () -> 0,
                admission,
                () -> true,
                10,
                10,
                ClusterStatus::standalone,
                List::of,
                null,
                null,
                new AuditTrail(Clock.systemUTC(), ClusterStatus::standalone));
        JsonNode document = AdminFixture.JSON.readTree(OpenApiDocument.of(catalogue));

        assertEquals(routes(table), documented(document));
        JsonNode get = document.at("/paths/~1api~1v1~1limits~1line~1topics~1{channel}/get");
        assertEquals("getLineTopicLimit", get.path("operationId").asText());
        assertEquals("The limit of one line topic", get.path("summary").asText());
        assertEquals(
                "#/components/parameters/lineChannel",
                get.at("/parameters/0/$ref").asText());
        assertEquals(
                "#/components/schemas/LineLimits",
                document.at("/components/schemas/LimitsDocument/properties/line/$ref")
                        .asText());
        assertTrue(
                document.at("/components/schemas/LineLimits/properties/topics").isObject());
        assertEquals(
                List.of("pulsar", "kafka", "line"),
                AdminFixture.JSON.convertValue(
                        document.at("/components/schemas/ThrottledClient/properties/protocol/enum"), List.class));
        // Who a throttled client is: each front end's declared fields, after its connection.
        List<String> throttled = new ArrayList<>();
        document.at("/components/schemas/ThrottledClient/properties")
                .fieldNames()
                .forEachRemaining(throttled::add);
        assertEquals(
                List.of(
                        "protocol",
                        "connection",
                        "role",
                        "producerId",
                        "consumerId",
                        "clientId",
                        "principal",
                        "group",
                        "session"),
                throttled.subList(0, 9));
        assertEquals(
                "int64",
                document.at("/components/schemas/ThrottledClient/properties/producerId/format")
                        .asText());
        assertEquals(
                List.of(
                        "topic",
                        "namespace",
                        "tenant",
                        "role",
                        "ip",
                        "proxy",
                        "prefix",
                        "client",
                        "principal",
                        "group"),
                AdminFixture.JSON.convertValue(
                        document.at("/components/schemas/ClusterShare/properties/scope/enum"), List.class));
        assertParametersDeclared(document);
        assertReferencesResolve(document);
    }

    private static final ScopeKind LINE_TOPIC = ScopeKind.builder("line", "topic")
            .field("line", "topics")
            .cliName("line-topic")
            .named(NameTemplate.of("{channel}", NameParameter.of("channel")), NameRule.ANY, "news")
            .rank(10)
            .description("one line topic")
            .build();
    private static final ProtocolScopes LINE = new ProtocolScopes(
            "line",
            List.of(LINE_TOPIC),
            topic -> List.of(new ScopeRef(LINE_TOPIC, topic)),
            List.of(IdentityField.text("session", "The line session")));

    private static Set<String> routes(RouteTable table) {
        Set<String> routes = new TreeSet<>();
        for (Route route : table.routes()) {
            routes.add(route.method().name() + " " + route.pattern().template());
        }
        return routes;
    }

    private static Set<String> documented(JsonNode document) {
        Set<String> documented = new TreeSet<>();
        for (Map.Entry<String, JsonNode> path : document.get("paths").properties()) {
            path.getValue().fieldNames().forEachRemaining(operation -> {
                if (OPERATIONS.contains(operation)) {
                    documented.add(operation.toUpperCase(Locale.ROOT) + " " + path.getKey());
                }
            });
        }
        return documented;
    }

    @Test
    void theActionsAreTheModelsOwn() throws IOException {
        JsonNode schemas = AdminFixture.JSON
                .readTree(OpenApiDocument.of(AdminFixture.SCOPES))
                .at("/components/schemas");
        for (String property : List.of("Limit/properties/onExceed", "ThrottledClient/properties/action")) {
            assertEquals(
                    OnExceed.jsonNames(),
                    AdminFixture.JSON.convertValue(schemas.at("/" + property + "/enum"), List.class),
                    property);
        }
    }

    @Test
    void everyPathParameterIsDeclared() throws IOException {
        assertParametersDeclared(AdminFixture.JSON.readTree(OpenApiDocument.of(AdminFixture.SCOPES)));
    }

    private static void assertParametersDeclared(JsonNode document) {
        for (Map.Entry<String, JsonNode> path : document.get("paths").properties()) {
            Set<String> inTemplate = new TreeSet<>();
            Matcher parameter = PARAMETER.matcher(path.getKey());
            while (parameter.find()) {
                inTemplate.add(parameter.group(1));
            }
            for (Map.Entry<String, JsonNode> operation : path.getValue().properties()) {
                Set<String> declared = new TreeSet<>();
                for (JsonNode declaration : operation.getValue().path("parameters")) {
                    String ref = declaration.path("$ref").asText();
                    JsonNode resolved = ref.isEmpty() ? declaration : document.at(ref.substring(1));
                    if ("path".equals(resolved.path("in").asText())) {
                        declared.add(resolved.get("name").asText());
                    }
                }
                assertEquals(inTemplate, declared, operation.getKey() + " " + path.getKey());
            }
        }
    }

    @Test
    void everyReferenceResolves() throws IOException {
        JsonNode document = AdminFixture.JSON.readTree(OpenApiDocument.of(AdminFixture.SCOPES));
        assertEquals("3.0.3", document.get("openapi").asText());
        assertReferencesResolve(document);
    }

    private static void assertReferencesResolve(JsonNode document) {
        document.findValues("$ref")
                .forEach(ref ->
                        assertFalse(document.at(ref.asText().substring(1)).isMissingNode(), ref.asText()));
    }

    @Test
    void theDocumentIsServed() throws IOException {
        try (AdminFixture admin = AdminFixture.start(dir)) {
            HttpResponse<String> response = admin.get("/api/v1/openapi.json");

            assertEquals(200, response.statusCode());
            assertEquals(
                    "application/json",
                    response.headers().firstValue("Content-Type").orElseThrow());
            assertEquals(
                    AdminFixture.JSON.readTree(OpenApiDocument.of(AdminFixture.SCOPES)), AdminFixture.json(response));
        }
    }
}
