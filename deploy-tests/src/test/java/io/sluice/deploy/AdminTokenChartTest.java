package io.sluice.deploy;

import com.fasterxml.jackson.databind.JsonNode;
import io.sluice.deploy.Chart.Manifests;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Base64;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The chart always has an admin token, as a file of a mounted Secret: generated when the operator
 * gives none, or the operator's own Secret, with which {@code helm template} prints the same every
 * time. Sluice refuses a non-loopback admin port without a token, so no pod may render without one.
 */
class AdminTokenChartTest {

    private static final String EXISTING = """
            adminToken:
              existingSecret: ops-sluice-token
              existingSecretKey: token
            """;

    /** Every kind of pod the chart renders, with each way of giving (or not giving) the token. */
    private static final List<String> PODS = List.of(
            "mode: sidecar\n",
            "kafka: {sidecar: {enabled: true}}\n",
            ProxyChartTest.MINIMAL,
            "mode: proxy\nreplicas: 1\nkafka: {upstream: 'kafka:9092'}\n",
            "mode: proxy\nupstream: pulsar://b:6650\ncluster: {bundledStore: {enabled: true}}\n",
            "mode: proxy\nupstream: pulsar://b:6650\ncluster: {store: 'redis://redis:6379'}\n",
            "mode: sidecar\n" + EXISTING,
            ProxyChartTest.MINIMAL + EXISTING,
            ProxyChartTest.MINIMAL + "adminToken: {value: chosen-token}\n",
            "mode: sidecar\ntls: {enabled: true, secretName: sluice-tls}\n" + EXISTING);

    @Test
    void noPodRendersWithoutAToken() {
        for (String values : PODS) {
            Manifests manifests = Chart.template(values);
            List<JsonNode> podSpecs = sluicePodSpecs(manifests);
            assertFalse(podSpecs.isEmpty(), values);
            for (JsonNode podSpec : podSpecs) {
                JsonNode sluice = PodChecks.container(podSpec, "containers", "sluice");
                String file = PodChecks.value(PodChecks.env(sluice), "SLUICE_ADMIN_TOKEN_FILE");
                JsonNode secret =
                        PodChecks.secretVolumeOf(podSpec, sluice, file).path("secret");
                assertFalse(secret.path("optional").asBoolean(false), values + ": the token Secret is not optional");
                String name = secret.path("secretName").asText();
                String key = secret.path("items").path(0).path("key").asText();
                if (values.contains("existingSecret")) {
                    assertEquals("ops-sluice-token", name, values);
                    assertEquals("token", key, values);
                } else {
                    String token = decode(manifests.one("Secret", name), key);
                    assertFalse(token.isBlank(), values + ": the rendered Secret holds a token under " + key);
                }
                PodChecks.assertNoSecretInEnvironmentOrCommandLine(podSpec);
            }
        }
    }

    @Test
    void aGeneratedTokenIsRandomAndAGivenOneIsKept() {
        String generated = decode(Chart.template("mode: sidecar\n").one("Secret", "sluice-admin-token"), "admin-token");
        assertTrue(generated.matches("[A-Za-z0-9]{32}"), generated);
        String other = decode(Chart.template("mode: sidecar\n").one("Secret", "sluice-admin-token"), "admin-token");
        assertNotEquals(generated, other, "a new install gets a new token (upgrades look the old one up)");
        assertEquals(
                "chosen-token",
                decode(
                        Chart.template("adminToken: {value: chosen-token}\n").one("Secret", "sluice-admin-token"),
                        "admin-token"));
    }

    @Test
    void anExistingSecretRendersNoTokenAndTheSameOutputEveryTime() {
        for (String values : List.of("mode: sidecar\n" + EXISTING, ProxyChartTest.MINIMAL + EXISTING)) {
            String first = Chart.templateText(values);
            assertEquals(first, Chart.templateText(values), values + ": two renders differ");
            assertFalse(Chart.template(values).has("Secret"), values + ": no Secret of the chart's own");
        }
        // Without it the output changes from render to render, which is what the test above rules out.
        assertNotEquals(Chart.templateText("mode: sidecar\n"), Chart.templateText("mode: sidecar\n"));
    }

    @Test
    void theTokenIsGivenOneWayOnlyAndTheFormerKeysSayWhereTheyWent() {
        ChartChecks.assertRefused("adminToken: {value: t, existingSecret: s}\n", "not both");
        ChartChecks.assertRefused("adminToken: {existingSecret: s, existingSecretKey: ''}\n", "existingSecretKey");
        ChartChecks.assertRefused("existingSecret: ops-sluice-token\n", "adminToken.existingSecret");
        ChartChecks.assertRefused("adminToken: s3cret\n", "adminToken");
    }

    /** The pod specs with Sluice in them: the Deployment's, or the sidecar patch's. */
    static List<JsonNode> sluicePodSpecs(Manifests manifests) {
        List<JsonNode> specs = new ArrayList<>();
        if (manifests.has("Deployment")) {
            specs.add(manifests.proxyPodSpec());
        }
        if (manifests.kindsAndNames().contains("ConfigMap/sluice-sidecar-patch")) {
            specs.add(manifests
                    .configMapYaml("sluice-sidecar-patch", "patch.yaml")
                    .path("spec")
                    .path("template")
                    .path("spec"));
        }
        return specs;
    }

    static String decode(JsonNode secret, String key) {
        JsonNode value = secret.path("data").path(key);
        assertTrue(
                value.isTextual(),
                "Secret " + secret.path("metadata").path("name").asText() + " has no " + key);
        return new String(Base64.getDecoder().decode(value.asText()));
    }
}
