package io.sluice.deploy;

import com.fasterxml.jackson.databind.JsonNode;
import io.sluice.deploy.Chart.Manifests;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The Kafka front end in the chart: a front proxy with a port per broker node on the container
 * and the Service, a proxy for both protocols, and a sidecar beside each Kafka broker.
 */
class KafkaChartTest {

    private static final String KAFKA_PROXY = """
            mode: proxy
            replicas: 1
            kafka:
              upstream: kafka-0.kafka:9092,kafka-1.kafka:9092
            """;

    @Test
    void aKafkaProxyServesTheBootstrapPortAndOnePortPerNode() {
        Manifests manifests = Chart.template(KAFKA_PROXY);
        JsonNode sluice = manifests.proxyContainer();
        Map<String, JsonNode> env = PodChecks.env(sluice);
        assertEquals("kafka-0.kafka:9092,kafka-1.kafka:9092", PodChecks.value(env, "SLUICE_KAFKA_UPSTREAM"));
        assertEquals("0.0.0.0:9092", PodChecks.value(env, "SLUICE_KAFKA_LISTEN"));
        assertEquals("rewrite", PodChecks.value(env, "SLUICE_KAFKA_ADDRESS_MODE"));
        assertEquals("9093", PodChecks.value(env, "SLUICE_KAFKA_NODE_PORT_BASE"));
        assertEquals(
                "sluice.pulsar.svc.cluster.local",
                PodChecks.value(env, "SLUICE_KAFKA_ADVERTISED_HOST"),
                "clients are told the Service's name by default");
        assertFalse(env.containsKey("SLUICE_UPSTREAM"), "no Pulsar front end without upstream");
        assertFalse(env.containsKey("SLUICE_LISTEN"));

        Map<String, Integer> containerPorts = ports(sluice.path("ports"), "containerPort");
        assertEquals(
                Map.of(
                        "sluice-kafka",
                        9092,
                        "kafka-node-0",
                        9093,
                        "kafka-node-1",
                        9094,
                        "kafka-node-2",
                        9095,
                        "sluice-admin",
                        8080),
                containerPorts);
        JsonNode service = manifests.one("Service", "sluice");
        assertEquals(
                Map.of("kafka", 9092, "kafka-node-0", 9093, "kafka-node-1", 9094, "kafka-node-2", 9095),
                ports(service.path("spec").path("ports"), "port"),
                "the client Service: the Kafka ports and never the admin port");
        for (JsonNode port : service.path("spec").path("ports")) {
            assertTrue(
                    containerPorts.containsKey(port.path("targetPort").asText()),
                    "Service port " + port + " targets a container port");
        }
        assertEquals(
                Map.of("admin", 8080),
                ports(manifests.one("Service", "sluice-admin").path("spec").path("ports"), "port"));

        String notes = Chart.notes(KAFKA_PROXY);
        assertTrue(notes.contains("Bootstrap servers for clients: sluice.pulsar.svc.cluster.local:9092"), notes);
        assertFalse(notes.contains("WARNING: allowedBrokers"), "no Pulsar warning without Pulsar");
    }

    @Test
    void nodeIdsPortsAndTheAdvertisedHostAreValues() {
        Manifests manifests = Chart.template(KAFKA_PROXY + """
                  port: 19092
                  nodePortBase: 20000
                  nodeIds: [1, 2, 3, 4]
                  advertisedHost: kafka.example.com
                """);
        JsonNode sluice = manifests.proxyContainer();
        Map<String, JsonNode> env = PodChecks.env(sluice);
        assertEquals("kafka.example.com", PodChecks.value(env, "SLUICE_KAFKA_ADVERTISED_HOST"));
        assertEquals("20000", PodChecks.value(env, "SLUICE_KAFKA_NODE_PORT_BASE"));
        assertEquals("0.0.0.0:19092", PodChecks.value(env, "SLUICE_KAFKA_LISTEN"));
        assertEquals(
                Set.of(19092, 20001, 20002, 20003, 20004),
                new TreeSet<>(
                        ports(manifests.one("Service", "sluice").path("spec").path("ports"), "port")
                                .values()));
    }

    @Test
    void oneProxyServesBothProtocols() {
        Manifests manifests = Chart.template(ProxyChartTest.MINIMAL + """
                kafka:
                  upstream: kafka:9092
                """);
        Map<String, JsonNode> env = PodChecks.env(manifests.proxyContainer());
        assertEquals("pulsar://pulsar-broker:6650", PodChecks.value(env, "SLUICE_UPSTREAM"));
        assertEquals("kafka:9092", PodChecks.value(env, "SLUICE_KAFKA_UPSTREAM"));
        assertTrue(ports(manifests.one("Service", "sluice").path("spec").path("ports"), "port")
                .keySet()
                .containsAll(List.of("pulsar", "kafka", "kafka-node-0")));
    }

    @Test
    void aKafkaSidecarForwardsToTheBrokersPrivateListenerAndRewritesNothing() {
        String values = """
                sidecar:
                  statefulSet: kafka
                  brokerPodSelector: {app.kubernetes.io/name: kafka}
                kafka:
                  sidecar:
                    enabled: true
                """;
        Manifests manifests = Chart.template(values);
        JsonNode sluice = PodChecks.container(
                manifests
                        .configMapYaml("sluice-sidecar-patch", "patch.yaml")
                        .path("spec")
                        .path("template")
                        .path("spec"),
                "containers",
                "sluice");
        Map<String, JsonNode> env = PodChecks.env(sluice);
        assertEquals("127.0.0.1:9094", PodChecks.value(env, "SLUICE_KAFKA_UPSTREAM"));
        assertEquals("0.0.0.0:9092", PodChecks.value(env, "SLUICE_KAFKA_LISTEN"));
        assertEquals("passthrough", PodChecks.value(env, "SLUICE_KAFKA_ADDRESS_MODE"));
        assertFalse(env.containsKey("SLUICE_UPSTREAM"), "a Kafka sidecar runs no Pulsar front end");
        assertEquals(Map.of("sluice-kafka", 9092, "sluice-admin", 8081), ports(sluice.path("ports"), "containerPort"));
        JsonNode service = manifests.one("Service", "sluice");
        assertEquals(Map.of("kafka", 9092), ports(service.path("spec").path("ports"), "port"));
        assertEquals(
                Map.of("admin", 8081),
                ports(manifests.one("Service", "sluice-admin").path("spec").path("ports"), "port"));
        assertEquals(
                Map.of("app.kubernetes.io/name", "kafka"),
                Chart.stringMap(service.path("spec").path("selector")));

        String notes = Chart.notes(values);
        assertTrue(notes.lines().anyMatch(l -> l.strip().equals("listeners=CLIENT://127.0.0.1:9094")), notes);
        assertTrue(
                notes.lines().anyMatch(l -> l.strip().equals("advertised.listeners=CLIENT://$(hostname -f):9092")),
                notes);
        assertTrue(notes.contains(
                "--kafka-address-mode passthrough --kafka-upstream 127.0.0.1:9094 --kafka-listen 0.0.0.0:9092"));
        assertTrue(notes.contains("patch statefulset kafka "));
    }

    @Test
    void sluicesOwnRequestsToTheClusterLogInWithAPasswordFromASecretFile() {
        Manifests manifests = Chart.template(KAFKA_PROXY + """
                  lookupSasl:
                    mechanism: SCRAM-SHA-512
                    username: sluice
                    passwordSecretName: kafka-sluice-login
                """);
        JsonNode sluice = manifests.proxyContainer();
        Map<String, JsonNode> env = PodChecks.env(sluice);
        assertEquals("SCRAM-SHA-512", PodChecks.value(env, "SLUICE_KAFKA_LOOKUP_SASL_MECHANISM"));
        assertEquals("sluice", PodChecks.value(env, "SLUICE_KAFKA_LOOKUP_SASL_USERNAME"));
        String file = PodChecks.value(env, "SLUICE_KAFKA_LOOKUP_SASL_PASSWORD_FILE");
        JsonNode volume = PodChecks.secretVolumeOf(manifests.proxyPodSpec(), sluice, file);
        assertEquals(
                "kafka-sluice-login", volume.path("secret").path("secretName").asText());
        assertEquals(
                "password",
                volume.path("secret").path("items").get(0).path("key").asText());
        PodChecks.assertNoSecretInEnvironmentOrCommandLine(manifests.proxyPodSpec());

        RuntimeException half = assertThrows(
                RuntimeException.class, () -> Chart.template(KAFKA_PROXY + "  lookupSasl:\n    mechanism: PLAIN\n"));
        assertTrue(half.getMessage().contains("kafka.lookupSasl.username"), half.getMessage());
        assertFalse(
                PodChecks.env(Chart.template(KAFKA_PROXY).proxyContainer())
                        .containsKey("SLUICE_KAFKA_LOOKUP_SASL_MECHANISM"),
                "no login by default");
    }

    @Test
    void aProxyWithoutEitherUpstreamOrWithNodePortsPastTheLastPortIsRefused() {
        RuntimeException neither = assertThrows(RuntimeException.class, () -> Chart.template("mode: proxy\n"));
        assertTrue(neither.getMessage().contains("kafka.upstream"), neither.getMessage());
        RuntimeException past =
                assertThrows(RuntimeException.class, () -> Chart.template(KAFKA_PROXY + "  nodePortBase: 65535\n"));
        assertTrue(past.getMessage().contains("past port 65535"), past.getMessage());
    }

    private static Map<String, Integer> ports(JsonNode ports, String field) {
        Map<String, Integer> byName = new java.util.TreeMap<>();
        for (JsonNode port : ports) {
            byName.put(port.path("name").asText(), port.path(field).asInt());
        }
        return byName;
    }
}
