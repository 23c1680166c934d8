package io.sluice.deploy;

import com.fasterxml.jackson.databind.JsonNode;
import io.sluice.deploy.Chart.Manifests;
import io.sluice.deploy.PodChecks.Expected;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** mode=sidecar: limits ConfigMap, token Secret, the StatefulSet patch, the Service; never a workload of its own. */
class SidecarChartTest {

    private static final String CUSTOM = """
            mode: sidecar
            image:
              repository: registry.example.com/messaging/sluice
              tag: "1.2.3"
            sidecar:
              statefulSet: brokers
              port: 7651
              brokerBindPort: 7652
              brokerPort: 7650
              adminPort: 9081
              brokerPodSelector:
                app.kubernetes.io/name: pulsar-broker
            drainTimeoutSeconds: 45
            adminToken:
              existingSecret: pulsar-sluice-token
              existingSecretKey: token
            limits:
              namespaces:
                public/default:
                  publish: {messagesPerSecond: 1000, bytesPerSecond: 1048576, burstSeconds: 1.5}
                  onExceed: reject
              connection: {maxPendingSends: 50000, maxHeldBytes: 67108864}
            metrics:
              scrapeAnnotations: false
            serviceMonitor:
              enabled: true
              labels:
                release: kube-prometheus
            resources:
              requests: {cpu: "1", memory: 1Gi}
              limits: {memory: 1Gi}
            """;

    private static Manifests defaults;
    private static Manifests custom;

    @BeforeAll
    static void render() {
        defaults = Chart.template("mode: sidecar\n");
        custom = Chart.template(CUSTOM);
    }

    @Test
    void defaultsRenderConfigOnlyNoWorkload() {
        assertEquals(
                Set.of(
                        "ConfigMap/sluice-dashboard",
                        "ConfigMap/sluice-limits",
                        "ConfigMap/sluice-sidecar-patch",
                        "Secret/sluice-admin-token",
                        "Service/sluice",
                        "Service/sluice-admin"),
                new TreeSet<>(defaults.kindsAndNames()));
        assertFalse(defaults.has("Deployment"));
        assertFalse(defaults.has("ServiceMonitor"), "ServiceMonitor only when enabled");
        ChartChecks.assertStandardLabels(defaults);
    }

    @Test
    void defaultPatchAddsAPassthroughSluiceBesideTheBroker() {
        JsonNode podSpec = patchPodSpec(defaults);
        PodChecks.assertSluicePod(
                podSpec,
                new Expected(
                        6651,
                        8081,
                        "pulsar://127.0.0.1:6652",
                        "passthrough",
                        10,
                        "sluice-admin-token",
                        "admin-token",
                        "sluice-limits",
                        "sluice:" + ChartChecks.appVersion()));
        assertEquals(30, podSpec.path("terminationGracePeriodSeconds").asInt(), "drain 10 s + 20 s");
        assertTrue(
                PodChecks.env(PodChecks.container(podSpec, "containers", "sluice")).keySet().stream()
                        .noneMatch(n -> n.equals("SLUICE_ALLOWED_BROKERS")),
                "a passthrough sidecar needs no broker allow-list");
    }

    @Test
    void patchLeavesTheBrokersOwnPodSettingsAlone() {
        JsonNode podSpec = patchPodSpec(defaults);
        Set<String> keys = new TreeSet<>();
        podSpec.fieldNames().forEachRemaining(keys::add);
        assertEquals(
                Set.of("containers", "initContainers", "terminationGracePeriodSeconds", "volumes"),
                keys,
                "the patch may add containers and volumes only (no pod securityContext, no annotations)");
        assertEquals(1, podSpec.path("containers").size());
        JsonNode patch = defaults.configMapYaml("sluice-sidecar-patch", "patch.yaml");
        assertEquals(Set.of("spec"), fieldNames(patch));
        assertEquals(Set.of("template"), fieldNames(patch.path("spec")));
        // The broker's web service already has 8080 in the shared pod network namespace.
        assertTrue(PodChecks.port(PodChecks.container(podSpec, "containers", "sluice"), "sluice-admin") != 8080);
    }

    @Test
    void unpatchDeletesExactlyWhatThePatchAdds() {
        JsonNode added = patchPodSpec(defaults);
        JsonNode removed = defaults.configMapYaml("sluice-sidecar-patch", "unpatch.yaml")
                .path("spec")
                .path("template")
                .path("spec");
        for (String list : List.of("initContainers", "containers", "volumes")) {
            Set<String> addedNames = new TreeSet<>();
            added.path(list).forEach(c -> addedNames.add(c.path("name").asText()));
            Set<String> removedNames = new TreeSet<>();
            removed.path(list).forEach(c -> {
                assertEquals("delete", c.path("$patch").asText(), list + " " + c);
                removedNames.add(c.path("name").asText());
            });
            assertEquals(addedNames, removedNames, list);
        }
    }

    @Test
    void servicesSelectTheBrokerPodsAndTheAdminServiceCarriesTheScrapeAnnotations() {
        for (String name : List.of("sluice", "sluice-admin")) {
            assertEquals(
                    Map.of("app", "pulsar", "component", "broker"),
                    Chart.stringMap(defaults.one("Service", name).path("spec").path("selector")),
                    name);
        }
        ChartChecks.assertServicePorts(defaults, 6651, 8081);
        ChartChecks.assertScrapeAnnotations(
                defaults.one("Service", "sluice-admin").path("metadata").path("annotations"), 8081);
        ChartChecks.assertNoScrapeAnnotations(
                defaults.one("Service", "sluice").path("metadata").path("annotations"));
    }

    @Test
    void defaultLimitsAndGeneratedToken() {
        JsonNode limits = ChartChecks.parseJson(defaults.one("ConfigMap", "sluice-limits")
                .path("data")
                .path("limits.json")
                .asText());
        assertTrue(limits.isObject() && limits.isEmpty(), "default limits document is {}: " + limits);
        String token = new String(Base64.getDecoder()
                .decode(defaults.one("Secret", "sluice-admin-token")
                        .path("data")
                        .path("admin-token")
                        .asText()));
        assertTrue(token.matches("[A-Za-z0-9]{32}"), "a generated 32-character token");
    }

    @Test
    void customValuesReachThePatch() {
        JsonNode podSpec = patchPodSpec(custom);
        PodChecks.assertSluicePod(
                podSpec,
                new Expected(
                        7651,
                        9081,
                        "pulsar://127.0.0.1:7652",
                        "passthrough",
                        45,
                        "pulsar-sluice-token",
                        "token",
                        "sluice-limits",
                        "registry.example.com/messaging/sluice:1.2.3"));
        assertEquals(65, podSpec.path("terminationGracePeriodSeconds").asInt(), "drain 45 s + 20 s");
        JsonNode resources =
                PodChecks.container(podSpec, "containers", "sluice").path("resources");
        assertEquals("1Gi", resources.path("limits").path("memory").asText());
        assertEquals("1", resources.path("requests").path("cpu").asText());
    }

    @Test
    void customLimitsAreRenderedAsTheSameDocument() throws Exception {
        JsonNode expected = Chart.YAML.readTree(CUSTOM).path("limits");
        JsonNode rendered = ChartChecks.parseJson(custom.one("ConfigMap", "sluice-limits")
                .path("data")
                .path("limits.json")
                .asText());
        assertEquals(expected, rendered, "same document (key order aside)");
        // Large integers must stay integers (Helm reads values as floats).
        assertEquals(67108864L, rendered.path("connection").path("maxHeldBytes").longValue());
        assertTrue(rendered.path("connection").path("maxHeldBytes").isIntegralNumber());
    }

    @Test
    void existingSecretReplacesTheRenderedOne() {
        assertFalse(custom.has("Secret"), "with adminToken.existingSecret the chart renders no Secret");
    }

    @Test
    void serviceMonitorWhenEnabledAndNoAnnotationsWhenDisabled() {
        for (String name : List.of("sluice", "sluice-admin")) {
            JsonNode service = custom.one("Service", name);
            assertEquals(
                    Map.of("app.kubernetes.io/name", "pulsar-broker"),
                    Chart.stringMap(service.path("spec").path("selector")),
                    name);
            ChartChecks.assertNoScrapeAnnotations(service.path("metadata").path("annotations"));
        }
        ChartChecks.assertServicePorts(custom, 7651, 9081);
        ChartChecks.assertServiceMonitorScrapes(custom);
        assertEquals(
                "kube-prometheus", custom.labels("ServiceMonitor", "sluice").get("release"));
        ChartChecks.assertStandardLabels(custom);
    }

    private static JsonNode patchPodSpec(Manifests manifests) {
        return manifests
                .configMapYaml("sluice-sidecar-patch", "patch.yaml")
                .path("spec")
                .path("template")
                .path("spec");
    }

    private static Set<String> fieldNames(JsonNode node) {
        Set<String> names = new TreeSet<>();
        node.fieldNames().forEachRemaining(names::add);
        return names;
    }
}
