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
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** mode=proxy: a Deployment and Service of Sluice in front of the broker service, rewriting lookups. */
class ProxyChartTest {

    /**
     * The smallest proxy that renders: two replicas (the default) need a store or the operator's
     * word that per-replica limits will do (BundledStoreChartTest has the other two ways).
     */
    static final String MINIMAL = """
            mode: proxy
            upstream: pulsar://pulsar-broker:6650
            cluster: {perReplicaLimits: true}
            """;

    // Single quotes in YAML keep the regex's backslashes as they are.
    static final String ALLOWED_BROKERS = "pulsar-broker-\\d+\\.pulsar-broker\\.pulsar\\.svc\\.cluster\\.local:6650";

    private static final String CUSTOM = """
            mode: proxy
            upstream: pulsar://pulsar-broker.pulsar.svc:6650
            allowedBrokers: '%s'
            replicas: 3
            cluster: {perReplicaLimits: true}
            port: 16650
            adminPort: 18080
            drainTimeoutSeconds: 30
            terminationGracePeriodSeconds: 90
            adminToken: {value: s3cret-token}
            metricsMaxTopics: 250000
            persistence:
              existingClaim: sluice-limits
            serviceMonitor:
              enabled: true
            podAnnotations:
              example.com/team: messaging
            extraEnv:
              - name: TZ
                value: UTC
            """.formatted(ALLOWED_BROKERS);

    private static Manifests defaults;
    private static Manifests custom;

    @BeforeAll
    static void render() {
        defaults = Chart.template(MINIMAL);
        custom = Chart.template(CUSTOM);
    }

    @Test
    void rendersDeploymentServiceConfigMapsAndSecretOnly() {
        assertEquals(
                Set.of(
                        "ConfigMap/sluice-dashboard",
                        "ConfigMap/sluice-limits",
                        "Deployment/sluice",
                        "Secret/sluice-admin-token",
                        "Service/sluice",
                        "Service/sluice-admin"),
                new TreeSet<>(defaults.kindsAndNames()));
        assertFalse(defaults.has("ServiceMonitor"), "ServiceMonitor only when enabled");
        ChartChecks.assertStandardLabels(defaults);
    }

    @Test
    void defaultPodIsARewritingFrontProxy() {
        JsonNode deployment = defaults.one("Deployment", "sluice");
        assertEquals(2, deployment.path("spec").path("replicas").asInt());
        JsonNode podSpec = deployment.path("spec").path("template").path("spec");
        PodChecks.assertSluicePod(
                podSpec,
                new Expected(
                        6650,
                        8080,
                        "pulsar://pulsar-broker:6650",
                        "rewrite",
                        10,
                        "sluice-admin-token",
                        "admin-token",
                        "sluice-limits",
                        "sluice:" + ChartChecks.appVersion()));
        assertEquals(30, podSpec.path("terminationGracePeriodSeconds").asInt(), "drain 10 s + 20 s");
        assertFalse(
                PodChecks.env(PodChecks.container(podSpec, "containers", "sluice"))
                        .containsKey("SLUICE_ALLOWED_BROKERS"),
                "no allow-list given: Sluice's own default (the upstream only) applies");
        assertTrue(PodChecks.volume(podSpec, "sluice-data").has("emptyDir"));
        assertFalse(podSpec.path("automountServiceAccountToken").asBoolean(true), "Sluice needs no API token");
    }

    @Test
    void podRunsAsTheImageUserWithAWritableVolumeGroup() {
        JsonNode pod = defaults.one("Deployment", "sluice")
                .path("spec")
                .path("template")
                .path("spec")
                .path("securityContext");
        assertTrue(pod.path("runAsNonRoot").asBoolean(false));
        assertEquals(ChartDefaults.runAsUser(), pod.path("runAsUser").asInt());
        assertEquals(
                ChartDefaults.runAsUser(), pod.path("fsGroup").asInt(), "fsGroup makes volumes writable for the user");
    }

    @Test
    void servicesSelectTheDeploymentsPods() {
        JsonNode deployment = defaults.one("Deployment", "sluice");
        Map<String, String> podLabels = Chart.stringMap(
                deployment.path("spec").path("template").path("metadata").path("labels"));
        Map<String, String> matchLabels =
                Chart.stringMap(deployment.path("spec").path("selector").path("matchLabels"));
        assertTrue(podLabels.entrySet().containsAll(matchLabels.entrySet()), "Deployment selector matches its pods");
        for (String name : List.of("sluice", "sluice-admin")) {
            JsonNode service = defaults.one("Service", name);
            Map<String, String> selector = Chart.stringMap(service.path("spec").path("selector"));
            assertEquals(matchLabels, selector, name + " selects exactly the Deployment's pods");
            ChartChecks.assertNoScrapeAnnotations(service.path("metadata").path("annotations"));
        }
        ChartChecks.assertServicePorts(defaults, 6650, 8080);
    }

    @Test
    void podsCarryScrapeAnnotations() {
        JsonNode annotations = defaults.one("Deployment", "sluice")
                .path("spec")
                .path("template")
                .path("metadata")
                .path("annotations");
        ChartChecks.assertScrapeAnnotations(annotations, 8080);
        assertTrue(annotations.path("checksum/limits").asText().matches("[0-9a-f]{64}"));
    }

    @Test
    void changingLimitsRollsThePods() {
        Manifests limited = Chart.template(MINIMAL + """
                limits:
                  proxy:
                    publish: {messagesPerSecond: 10}
                """);
        assertNotEquals(checksum(defaults), checksum(limited));
    }

    @Test
    void customValuesReachTheDeployment() {
        JsonNode deployment = custom.one("Deployment", "sluice");
        assertEquals(3, deployment.path("spec").path("replicas").asInt());
        JsonNode podSpec = deployment.path("spec").path("template").path("spec");
        PodChecks.assertSluicePod(
                podSpec,
                new Expected(
                        16650,
                        18080,
                        "pulsar://pulsar-broker.pulsar.svc:6650",
                        "rewrite",
                        30,
                        "sluice-admin-token",
                        "admin-token",
                        "sluice-limits",
                        "sluice:" + ChartChecks.appVersion()));
        assertEquals(90, podSpec.path("terminationGracePeriodSeconds").asInt(), "an explicit grace period is kept");
        Map<String, JsonNode> env = PodChecks.env(PodChecks.container(podSpec, "containers", "sluice"));
        assertEquals(ALLOWED_BROKERS, PodChecks.value(env, "SLUICE_ALLOWED_BROKERS"), "the regex survives quoting");
        assertEquals(
                "250000",
                PodChecks.value(env, "SLUICE_METRICS_MAX_TOPICS"),
                "large numbers are not printed as 2.5e+05");
        assertEquals("UTC", PodChecks.value(env, "TZ"), "extraEnv is appended");
        assertEquals(
                "sluice-limits",
                PodChecks.volume(podSpec, "sluice-data")
                        .path("persistentVolumeClaim")
                        .path("claimName")
                        .asText());

        JsonNode annotations =
                deployment.path("spec").path("template").path("metadata").path("annotations");
        ChartChecks.assertScrapeAnnotations(annotations, 18080);
        assertEquals("messaging", annotations.path("example.com/team").asText());
    }

    @Test
    void customTokenServiceAndServiceMonitor() {
        String token = new String(Base64.getDecoder()
                .decode(custom.one("Secret", "sluice-admin-token")
                        .path("data")
                        .path("admin-token")
                        .asText()));
        assertEquals("s3cret-token", token);
        ChartChecks.assertServicePorts(custom, 16650, 18080);
        ChartChecks.assertServiceMonitorScrapes(custom);
        ChartChecks.assertStandardLabels(custom);
    }

    private static String checksum(Manifests manifests) {
        return manifests
                .one("Deployment", "sluice")
                .path("spec")
                .path("template")
                .path("metadata")
                .path("annotations")
                .path("checksum/limits")
                .asText();
    }
}
