package io.sluice.deploy;

import com.fasterxml.jackson.databind.JsonNode;
import io.sluice.deploy.Chart.Manifests;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Checks on rendered objects that do not depend on the mode. */
final class ChartChecks {

    private ChartChecks() {}

    static JsonNode chartYaml() {
        try {
            return Chart.YAML.readTree(Repo.chart().resolve("Chart.yaml").toFile());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static String appVersion() {
        return chartYaml().path("appVersion").asText();
    }

    /** The recommended app.kubernetes.io labels on every object the chart renders. */
    static void assertStandardLabels(Manifests manifests) {
        assertFalse(manifests.objects().isEmpty(), "nothing rendered");
        for (JsonNode object : manifests.objects()) {
            String what = object.path("kind").asText() + "/"
                    + object.path("metadata").path("name").asText();
            Map<String, String> labels = Chart.stringMap(object.path("metadata").path("labels"));
            assertEquals("sluice", labels.get("app.kubernetes.io/name"), what);
            assertEquals(Chart.RELEASE, labels.get("app.kubernetes.io/instance"), what);
            assertEquals(appVersion(), labels.get("app.kubernetes.io/version"), what);
            assertEquals("Helm", labels.get("app.kubernetes.io/managed-by"), what);
            assertEquals("sluice-" + chartYaml().path("version").asText(), labels.get("helm.sh/chart"), what);
        }
    }

    static void assertScrapeAnnotations(JsonNode annotations, int adminPort) {
        assertEquals("true", annotations.path("prometheus.io/scrape").asText(), "prometheus.io/scrape");
        assertEquals(
                String.valueOf(adminPort),
                annotations.path("prometheus.io/port").asText(),
                "prometheus.io/port");
        assertEquals("/metrics", annotations.path("prometheus.io/path").asText(), "prometheus.io/path");
    }

    static void assertNoScrapeAnnotations(JsonNode annotations) {
        assertFalse(annotations.has("prometheus.io/scrape"), "unexpected prometheus.io/scrape in " + annotations);
    }

    /** A Service's port by name: {port, targetPort}. */
    static JsonNode servicePort(JsonNode service, String name) {
        for (JsonNode port : service.path("spec").path("ports")) {
            if (name.equals(port.path("name").asText())) {
                return port;
            }
        }
        throw new AssertionError(
                "Service has no port " + name + ": " + service.path("spec").path("ports"));
    }

    static void assertServicePorts(JsonNode service, int pulsarPort, int adminPort) {
        assertEquals(pulsarPort, servicePort(service, "pulsar").path("port").asInt());
        assertEquals(
                "sluice-pulsar",
                servicePort(service, "pulsar").path("targetPort").asText());
        assertEquals(adminPort, servicePort(service, "admin").path("port").asInt());
        assertEquals(
                "sluice-admin", servicePort(service, "admin").path("targetPort").asText());
    }

    /** The ServiceMonitor selects the Service and scrapes /metrics on its admin port. */
    static void assertServiceMonitorScrapes(Manifests manifests, JsonNode service) {
        JsonNode monitor = manifests.one(
                "ServiceMonitor", service.path("metadata").path("name").asText());
        assertEquals("monitoring.coreos.com/v1", monitor.path("apiVersion").asText());
        Map<String, String> selector =
                Chart.stringMap(monitor.path("spec").path("selector").path("matchLabels"));
        Map<String, String> serviceLabels =
                Chart.stringMap(service.path("metadata").path("labels"));
        assertFalse(selector.isEmpty(), "ServiceMonitor selector");
        assertTrue(
                serviceLabels.entrySet().containsAll(selector.entrySet()),
                "ServiceMonitor selector " + selector + " must match the Service's labels " + serviceLabels);
        JsonNode endpoint = monitor.path("spec").path("endpoints").path(0);
        assertNotNull(servicePort(service, endpoint.path("port").asText()));
        assertEquals("admin", endpoint.path("port").asText());
        assertEquals("/metrics", endpoint.path("path").asText());
        assertEquals(
                Chart.NAMESPACE,
                monitor.path("spec")
                        .path("namespaceSelector")
                        .path("matchNames")
                        .path(0)
                        .asText());
    }

    static JsonNode parseJson(String text) {
        try {
            return Chart.JSON.readTree(text);
        } catch (IOException e) {
            throw new AssertionError("not JSON: " + text, e);
        }
    }
}
