package io.sluice.deploy;

import com.fasterxml.jackson.databind.JsonNode;
import io.sluice.deploy.Chart.Manifests;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Defaults that hold with more than one replica: a proxy with replicas above 1 shares its limits
 * through a store (the operator's, or the bundled Valkey), or the chart refuses to render unless
 * the operator accepts per-replica limits (values.yaml, cluster.*; README, "Kubernetes").
 */
class BundledStoreChartTest {

    private static final String PROXY = """
            mode: proxy
            upstream: pulsar://pulsar-broker:6650
            """;

    private static final String BUNDLED = PROXY + "cluster: {bundledStore: {enabled: true}}\n";

    private static final String STORE_URL = "redis://sluice-store.pulsar.svc:6379";

    @Test
    void severalReplicasWithoutAStoreAreRefusedWithTheThreeWaysOut() {
        for (int replicas : List.of(2, 3)) {
            String refusal = Chart.refusal(PROXY + "replicas: " + replicas + "\n");
            String line = refusal.lines()
                    .filter(l -> l.contains("replicas=" + replicas))
                    .findFirst()
                    .orElseThrow(() -> new AssertionError("no line names replicas=" + replicas + ": " + refusal));
            for (String way : List.of(
                    "cluster.store=redis://", "cluster.bundledStore.enabled=true", "cluster.perReplicaLimits=true")) {
                assertTrue(line.contains(way), "the one line names " + way + ": " + line);
            }
            assertTrue(line.contains(replicas + " times the limit"), line);
        }
        assertTrue(Chart.refusal(PROXY).contains("replicas=2"), "the default replicas (2) is refused without a store");
    }

    @Test
    void oneReplicaOrPerReplicaLimitsNeedNoStore() {
        for (String values : List.of(PROXY + "replicas: 1\n", PROXY + "cluster: {perReplicaLimits: true}\n")) {
            Manifests manifests = Chart.template(values);
            assertFalse(manifests.has("StatefulSet"), values);
            assertFalse(clusterEnv(sluiceEnv(manifests)), values);
        }
        String notes = Chart.notes(PROXY + "cluster: {perReplicaLimits: true}\n");
        assertTrue(notes.contains("each of the 2 replicas keeps its own limits"), notes);
    }

    @Test
    void theSidecarModeIsNotRefused() {
        assertFalse(
                Chart.template("mode: sidecar\n").has("StatefulSet"), "the broker count is not the chart's to know");
    }

    @Test
    void theBundledStoreIsOneValkeyWithItsServiceAndAGeneratedPassword() {
        Manifests manifests = Chart.template(BUNDLED);
        JsonNode statefulSet = manifests.one("StatefulSet", "sluice-store");
        assertEquals(1, statefulSet.path("spec").path("replicas").asInt());
        assertEquals(
                "sluice-store", statefulSet.path("spec").path("serviceName").asText());
        Map<String, String> podLabels = Chart.stringMap(
                statefulSet.path("spec").path("template").path("metadata").path("labels"));
        Map<String, String> selector =
                Chart.stringMap(statefulSet.path("spec").path("selector").path("matchLabels"));
        assertTrue(podLabels.entrySet().containsAll(selector.entrySet()));

        JsonNode service = manifests.one("Service", "sluice-store");
        assertEquals("ClusterIP", service.path("spec").path("type").asText());
        assertEquals(selector, Chart.stringMap(service.path("spec").path("selector")));
        assertEquals(
                6379, ChartChecks.servicePort(service, "redis").path("port").asInt());

        String password = AdminTokenChartTest.decode(manifests.one("Secret", "sluice-store"), "password");
        assertTrue(password.matches("[A-Za-z0-9]{32}"), password);
        assertFalse(statefulSet.toString().contains(password), "the password is not in the pod spec");

        JsonNode store = storeContainer(manifests);
        assertEquals("docker.io/valkey/valkey:8.1-alpine", store.path("image").asText());
        PodChecks.assertFromSecret(PodChecks.env(store).get("STORE_PASSWORD"), "sluice-store", "password");
        List<String> args = PodChecks.texts(store.path("args"));
        assertEquals("$(STORE_PASSWORD)", argAfter(args, "--requirepass"));
        assertEquals("64mb", argAfter(args, "--maxmemory"));
        assertEquals(
                "volatile-ttl", argAfter(args, "--maxmemory-policy"), "the limits document (no TTL) is never evicted");
        assertEquals("", argAfter(args, "--save"));
        assertEquals("no", argAfter(args, "--appendonly"));
        assertEquals(
                "128Mi", store.path("resources").path("limits").path("memory").asText());
        assertTrue(store.path("resources").path("requests").has("cpu"));
        assertEquals(
                "redis",
                store.path("readinessProbe").path("tcpSocket").path("port").asText());

        JsonNode podSpec = statefulSet.path("spec").path("template").path("spec");
        assertTrue(PodChecks.volume(podSpec, "data").has("emptyDir"), "no disk by default");
        assertFalse(statefulSet.path("spec").has("volumeClaimTemplates"));
        assertTrue(podSpec.path("securityContext").path("runAsNonRoot").asBoolean());
        assertTrue(store.path("securityContext").path("readOnlyRootFilesystem").asBoolean());
        assertEquals(
                List.of("ALL"),
                PodChecks.texts(
                        store.path("securityContext").path("capabilities").path("drop")));
        assertFalse(podSpec.path("automountServiceAccountToken").asBoolean(true));
        ChartChecks.assertStandardLabels(manifests);
    }

    @Test
    void theSluicesUseTheBundledStoreForTheirLimitsToo() {
        Manifests manifests = Chart.template(BUNDLED);
        Map<String, JsonNode> env = sluiceEnv(manifests);
        assertEquals(STORE_URL, PodChecks.value(env, "SLUICE_CLUSTER_STORE"));
        assertEquals("store", PodChecks.value(env, "SLUICE_LIMITS_SOURCE"), "a PUT on any replica applies to all");
        assertEquals("sluice", PodChecks.value(env, "SLUICE_CLUSTER_ID"));
        PodChecks.assertFromSecret(env.get(PodChecks.STORE_PASSWORD), "sluice-store", "password");
        JsonNode podSpec = manifests.proxyPodSpec();
        PodChecks.assertNoSecretInEnvironmentOrCommandLine(podSpec);
        PodChecks.assertNoUnknownSluiceVariables(podSpec);
        assertEquals(
                "file",
                PodChecks.value(
                        sluiceEnv(Chart.template(
                                BUNDLED.replace("enabled: true}", "enabled: true}, limitsSource: file"))),
                        "SLUICE_LIMITS_SOURCE"),
                "an explicit limitsSource is kept");
        String notes = Chart.notes(BUNDLED);
        assertTrue(notes.contains("share their limits through " + STORE_URL + " (the bundled store"), notes);
    }

    @Test
    void noServiceOrWorkloadOfSluiceSelectsTheStoresPods() {
        Manifests manifests = Chart.template(BUNDLED);
        Map<String, String> storePod = Chart.stringMap(manifests
                .one("StatefulSet", "sluice-store")
                .path("spec")
                .path("template")
                .path("metadata")
                .path("labels"));
        for (JsonNode selector : List.of(
                manifests
                        .one("Deployment", "sluice")
                        .path("spec")
                        .path("selector")
                        .path("matchLabels"),
                manifests.one("Service", "sluice").path("spec").path("selector"),
                manifests.one("Service", "sluice-admin").path("spec").path("selector"))) {
            assertFalse(
                    storePod.entrySet().containsAll(Chart.stringMap(selector).entrySet()),
                    selector + " would select the store's pods " + storePod);
        }
    }

    @Test
    void imageResourcesAndPersistenceAreValues() {
        Manifests manifests = Chart.template(PROXY + """
                cluster:
                  bundledStore:
                    enabled: true
                    image: {repository: registry.example.com/mirror/redis, tag: 7.4-alpine}
                    maxMemory: 200mb
                    resources: {requests: {cpu: 100m, memory: 512Mi}, limits: {memory: 512Mi}}
                    persistence: {enabled: true, size: 5Gi, storageClass: fast}
                """);
        JsonNode store = storeContainer(manifests);
        assertEquals(
                "registry.example.com/mirror/redis:7.4-alpine",
                store.path("image").asText());
        assertEquals("200mb", argAfter(PodChecks.texts(store.path("args")), "--maxmemory"));
        assertEquals("yes", argAfter(PodChecks.texts(store.path("args")), "--appendonly"));
        assertEquals(
                "512Mi", store.path("resources").path("limits").path("memory").asText());
        JsonNode statefulSet = manifests.one("StatefulSet", "sluice-store");
        JsonNode claim = statefulSet.path("spec").path("volumeClaimTemplates").get(0);
        assertEquals("data", claim.path("metadata").path("name").asText());
        assertEquals(
                "5Gi",
                claim.path("spec")
                        .path("resources")
                        .path("requests")
                        .path("storage")
                        .asText());
        assertEquals("fast", claim.path("spec").path("storageClassName").asText());
        assertFalse(
                statefulSet.path("spec").path("template").path("spec").has("volumes"),
                "the claim, not an emptyDir, holds /data");
    }

    @Test
    void aPasswordOfTheOperatorsKeepsTheOutputStable() {
        String values = PROXY + """
                adminToken: {existingSecret: ops-sluice-token}
                cluster:
                  bundledStore: {enabled: true}
                  password: {existingSecret: ops-store, existingSecretKey: pw}
                """;
        assertEquals(Chart.templateText(values), Chart.templateText(values), "two renders differ");
        Manifests manifests = Chart.template(values);
        assertFalse(manifests.has("Secret"), manifests.kindsAndNames().toString());
        // The store and the Sluices read the same password.
        PodChecks.assertFromSecret(PodChecks.env(storeContainer(manifests)).get("STORE_PASSWORD"), "ops-store", "pw");
        PodChecks.assertFromSecret(sluiceEnv(manifests).get(PodChecks.STORE_PASSWORD), "ops-store", "pw");
    }

    @Test
    void sidecarsShareTheBundledStoreWhenAskedTo() {
        Manifests manifests = Chart.template("cluster: {bundledStore: {enabled: true}}\n");
        assertTrue(manifests.has("StatefulSet"));
        JsonNode patch = manifests
                .configMapYaml("sluice-sidecar-patch", "patch.yaml")
                .path("spec")
                .path("template")
                .path("spec");
        Map<String, JsonNode> env = PodChecks.env(PodChecks.container(patch, "containers", "sluice"));
        assertEquals(STORE_URL, PodChecks.value(env, "SLUICE_CLUSTER_STORE"));
        assertFalse(Chart.notes("cluster: {bundledStore: {enabled: true}}\n")
                .contains("Each sidecar keeps its own limits"));
    }

    @Test
    void withANetworkPolicyOnlyTheSluicesReachTheStore() {
        Manifests manifests = Chart.template(BUNDLED + "networkPolicy: {enabled: true}\n");
        JsonNode policy = manifests.one("NetworkPolicy", "sluice-store");
        assertEquals(
                manifests
                        .one("StatefulSet", "sluice-store")
                        .path("spec")
                        .path("selector")
                        .path("matchLabels"),
                policy.path("spec").path("podSelector").path("matchLabels"));
        JsonNode rule = policy.path("spec").path("ingress").get(0);
        assertEquals(1, policy.path("spec").path("ingress").size());
        assertEquals(6379, rule.path("ports").get(0).path("port").asInt());
        assertEquals(
                manifests
                        .one("Deployment", "sluice")
                        .path("spec")
                        .path("selector")
                        .path("matchLabels"),
                rule.path("from").get(0).path("podSelector").path("matchLabels"),
                "the Sluice pods of this release only");
        assertEquals(1, rule.path("from").size());
    }

    @Test
    void contradictoryStoreSettingsAreRefused() {
        ChartChecks.assertRefused(
                BUNDLED.replace("bundledStore", "store: 'redis://r:6379', bundledStore"), "one of them");
        ChartChecks.assertRefused(
                PROXY + "cluster: {store: 'redis://r:6379', perReplicaLimits: true}\n", "perReplicaLimits");
        ChartChecks.assertRefused(
                PROXY + "cluster: {bundledStore: {enabled: true}, perReplicaLimits: true}\n", "perReplicaLimits");
        ChartChecks.assertRefused(
                PROXY + "cluster: {bundledStore: {enabled: true}, tls: {caSecret: ca}}\n", "cluster.tls.caSecret");
        ChartChecks.assertRefused(
                PROXY + "replicas: 1\ncluster: {limitsSource: store}\n", "cluster.bundledStore.enabled=true");
    }

    private static Map<String, JsonNode> sluiceEnv(Manifests manifests) {
        return PodChecks.env(manifests.proxyContainer());
    }

    private static boolean clusterEnv(Map<String, JsonNode> env) {
        return env.keySet().stream()
                .anyMatch(name -> name.startsWith("SLUICE_CLUSTER") || name.equals("SLUICE_LIMITS_SOURCE"));
    }

    private static JsonNode storeContainer(Manifests manifests) {
        return PodChecks.container(
                manifests
                        .one("StatefulSet", "sluice-store")
                        .path("spec")
                        .path("template")
                        .path("spec"),
                "containers",
                "store");
    }

    private static String argAfter(List<String> args, String option) {
        int at = args.indexOf(option);
        assertTrue(at >= 0 && at + 1 < args.size(), option + " in " + args);
        return args.get(at + 1);
    }
}
