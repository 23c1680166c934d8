package io.sluice.deploy;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

/** cluster.*: Sluices sharing limits through Redis, its password from a Secret and its CA for TLS. */
class ClusterChartTest {

    private static final String SHARED = """
            mode: proxy
            upstream: pulsar://pulsar-broker:6650
            cluster:
              store: rediss://redis.pulsar.svc:6380/2
              syncInterval: 500ms
              limitsSource: store
              password:
                existingSecret: redis-auth
                existingSecretKey: redis-password
              tls:
                caSecret: redis-ca
            """;

    private static JsonNode podSpec(String values) {
        return Chart.template(values)
                .one("Deployment", "sluice")
                .path("spec")
                .path("template")
                .path("spec");
    }

    @Test
    void withoutAStoreEachSluiceKeepsItsOwnLimits() {
        JsonNode pod = podSpec(ProxyChartTest.MINIMAL);
        Map<String, JsonNode> env = PodChecks.env(PodChecks.container(pod, "containers", "sluice"));
        assertFalse(
                env.keySet().stream()
                        .anyMatch(name -> name.startsWith("SLUICE_CLUSTER") || name.equals("SLUICE_LIMITS_SOURCE")),
                env.keySet().toString());
    }

    @Test
    void aStoreReachesEverySluiceWithItsPasswordFromASecretAndItsCa() {
        JsonNode pod = podSpec(SHARED);
        JsonNode sluice = PodChecks.container(pod, "containers", "sluice");
        Map<String, JsonNode> env = PodChecks.env(sluice);
        assertEquals("rediss://redis.pulsar.svc:6380/2", PodChecks.value(env, "SLUICE_CLUSTER_STORE"));
        assertEquals("sluice", PodChecks.value(env, "SLUICE_CLUSTER_ID"), "the release's full name by default");
        assertEquals("500ms", PodChecks.value(env, "SLUICE_CLUSTER_SYNC_INTERVAL"));
        assertEquals("store", PodChecks.value(env, "SLUICE_LIMITS_SOURCE"));

        PodChecks.assertFromSecret(env.get(PodChecks.STORE_PASSWORD), "redis-auth", "redis-password");

        assertEquals("/etc/sluice/redis-ca/ca.crt", PodChecks.value(env, "SLUICE_CLUSTER_STORE_CA"));
        assertEquals("/etc/sluice/redis-ca", PodChecks.mountPath(sluice, "sluice-redis-ca"));
        assertEquals(
                "redis-ca",
                PodChecks.volume(pod, "sluice-redis-ca")
                        .path("secret")
                        .path("secretName")
                        .asText());
        PodChecks.assertNoUnknownSluiceVariables(pod);
    }

    @Test
    void theSidecarsOfEveryBrokerShareTheStoreToo() {
        JsonNode patch = Chart.template("cluster:\n  store: redis://redis:6379\n  id: prod\n")
                .configMapYaml("sluice-sidecar-patch", "patch.yaml")
                .path("spec")
                .path("template")
                .path("spec");
        Map<String, JsonNode> env = PodChecks.env(PodChecks.container(patch, "containers", "sluice"));
        assertEquals("redis://redis:6379", PodChecks.value(env, "SLUICE_CLUSTER_STORE"));
        assertEquals("prod", PodChecks.value(env, "SLUICE_CLUSTER_ID"));
        assertEquals(
                "store",
                PodChecks.value(env, "SLUICE_LIMITS_SOURCE"),
                "with a store, a PUT on any Sluice applies to all unless limitsSource says file");
        PodChecks.assertNoUnknownSluiceVariables(patch);
    }

    @Test
    void valuesThatCannotWorkAreRefusedAtInstall() {
        ChartChecks.assertRefused(
                "cluster:\n  limitsSource: store\n", "cluster.limitsSource=store needs cluster.store");
        ChartChecks.assertRefused(
                "cluster:\n  store: redis.svc:6379\n", "cluster.store must be a redis:// or rediss:// URL");
        ChartChecks.assertRefused(
                "cluster:\n  store: redis://redis:6379\n  tls:\n    caSecret: ca\n",
                "cluster.tls.caSecret needs a rediss://");
        ChartChecks.assertRefused("cluster:\n  store: redis://redis:6379\n  limitsSource: redis\n", "limitsSource");
    }
}
