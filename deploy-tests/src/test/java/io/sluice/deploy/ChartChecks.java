package io.sluice.deploy;

import com.fasterxml.jackson.databind.JsonNode;
import io.sluice.deploy.Chart.Manifests;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
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

    /**
     * The client Service carries the Pulsar port and never the admin port; the admin port is on
     * the admin Service, a ClusterIP Service of its own selecting the same pods.
     */
    static void assertServicePorts(Manifests manifests, int pulsarPort, int adminPort) {
        JsonNode service = manifests.one("Service", Chart.RELEASE);
        assertEquals(pulsarPort, servicePort(service, "pulsar").path("port").asInt());
        assertEquals(
                "sluice-pulsar",
                servicePort(service, "pulsar").path("targetPort").asText());
        assertNoAdminPort(service, adminPort);
        JsonNode admin = adminService(manifests);
        assertEquals(adminPort, servicePort(admin, "admin").path("port").asInt());
        assertEquals(
                "sluice-admin", servicePort(admin, "admin").path("targetPort").asText());
    }

    /** The admin Service: ClusterIP whatever service.type says, the admin port only, the client Service's pods. */
    static JsonNode adminService(Manifests manifests) {
        JsonNode admin = manifests.one("Service", ADMIN_SERVICE);
        assertEquals("ClusterIP", admin.path("spec").path("type").asText(), "the admin Service is ClusterIP");
        assertEquals(1, admin.path("spec").path("ports").size(), "the admin Service has the admin port only");
        assertEquals(
                manifests.one("Service", Chart.RELEASE).path("spec").path("selector"),
                admin.path("spec").path("selector"),
                "the admin Service selects the client Service's pods");
        return admin;
    }

    static final String ADMIN_SERVICE = Chart.RELEASE + "-admin";

    /** No port of {@code service} is, or targets, the admin port. */
    static void assertNoAdminPort(JsonNode service, int adminPort) {
        for (JsonNode port : service.path("spec").path("ports")) {
            assertFalse(
                    port.path("port").asInt() == adminPort
                            || port.path("targetPort").asText().equals("sluice-admin")
                            || port.path("targetPort").asInt() == adminPort,
                    service.path("metadata").path("name").asText() + " carries the admin port: " + port);
        }
    }

    /**
     * The ServiceMonitor selects the admin Service and no other Service of the release, scrapes
     * /metrics on its admin port, and names its job by a label of the admin Service whose value is
     * the release's full name (the job it had when the admin port was on the client Service).
     */
    static void assertServiceMonitorScrapes(Manifests manifests) {
        JsonNode monitor = manifests.one("ServiceMonitor", Chart.RELEASE);
        assertEquals("monitoring.coreos.com/v1", monitor.path("apiVersion").asText());
        Map<String, String> selector =
                Chart.stringMap(monitor.path("spec").path("selector").path("matchLabels"));
        assertFalse(selector.isEmpty(), "ServiceMonitor selector");
        List<String> selected = manifests.ofKind("Service").stream()
                .filter(s -> Chart.stringMap(s.path("metadata").path("labels"))
                        .entrySet()
                        .containsAll(selector.entrySet()))
                .map(s -> s.path("metadata").path("name").asText())
                .toList();
        assertEquals(List.of(ADMIN_SERVICE), selected, "the ServiceMonitor selects the admin Service only");
        JsonNode service = manifests.one("Service", ADMIN_SERVICE);
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
        String jobLabel = monitor.path("spec").path("jobLabel").asText();
        assertEquals(
                Chart.RELEASE,
                Chart.stringMap(service.path("metadata").path("labels")).get(jobLabel),
                "the job is the admin Service's " + jobLabel + " label");
    }

    /** {@code helm template} refuses {@code values} with a message naming {@code messagePart}. */
    static void assertRefused(String values, String messagePart) {
        String refusal = Chart.refusal(values);
        assertTrue(refusal.contains(messagePart), "message should name " + messagePart + ": " + refusal);
    }

    static JsonNode parseJson(String text) {
        try {
            return Chart.JSON.readTree(text);
        } catch (IOException e) {
            throw new AssertionError("not JSON: " + text, e);
        }
    }
}
