package io.sluice.admin;

import com.fasterxml.jackson.databind.JsonNode;
import io.sluice.admin.http.Route;
import io.sluice.admin.openapi.OpenApiResource;
import io.sluice.admission.AdmissionController;
import io.sluice.admission.AdmissionSettings;
import io.sluice.testing.LeakCheck;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

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
            Set<String> routes = new TreeSet<>();
            for (Route route : admin.server.routes().routes()) {
                routes.add(route.method().name() + " " + route.pattern().template());
            }
            Set<String> documented = new TreeSet<>();
            JsonNode document = AdminFixture.JSON.readTree(OpenApiResource.load());
            for (Map.Entry<String, JsonNode> path : document.get("paths").properties()) {
                path.getValue().fieldNames().forEachRemaining(operation -> {
                    if (OPERATIONS.contains(operation)) {
                        documented.add(operation.toUpperCase(Locale.ROOT) + " " + path.getKey());
                    }
                });
            }

            assertEquals(routes, documented);
        }
    }

    @Test
    void everyPathParameterIsDeclared() throws IOException {
        JsonNode document = AdminFixture.JSON.readTree(OpenApiResource.load());
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
        JsonNode document = AdminFixture.JSON.readTree(OpenApiResource.load());
        assertEquals("3.0.3", document.get("openapi").asText());
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
            assertEquals(AdminFixture.JSON.readTree(OpenApiResource.load()), AdminFixture.json(response));
        }
    }
}
