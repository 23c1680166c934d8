package io.sluice.deploy;

import com.fasterxml.jackson.databind.JsonNode;
import io.sluice.deploy.Chart.Manifests;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * networkPolicy.*: clients reach only the client ports, the admin port only the namespaces and
 * Prometheus pods named; no rule admits everyone to the admin port.
 */
class NetworkPolicyChartTest {

    private static final String PROXY_BOTH = """
            mode: proxy
            upstream: pulsar://pulsar-broker:6650
            kafka: {upstream: 'kafka:9092', nodeIds: [0, 1]}
            cluster: {perReplicaLimits: true}
            """;

    private static final String ADMIN_FROM = """
            networkPolicy:
              enabled: true
              adminFrom:
                namespaces: [pulsar-ops, tools]
                prometheus: {namespace: monitoring}
            """;

    @Test
    void noPolicyUnlessEnabled() {
        assertFalse(Chart.template("mode: sidecar\n").has("NetworkPolicy"));
        assertFalse(Chart.template(PROXY_BOTH).has("NetworkPolicy"));
    }

    @Test
    void clientsReachTheClientPortsAndTheNamedNamespacesTheAdminPort() {
        Manifests manifests = Chart.template(PROXY_BOTH + ADMIN_FROM);
        JsonNode policy = manifests.one("NetworkPolicy", Chart.RELEASE);
        assertEquals("networking.k8s.io/v1", policy.path("apiVersion").asText());
        assertEquals(List.of("Ingress"), PodChecks.texts(policy.path("spec").path("policyTypes")));
        JsonNode deployment = manifests.one("Deployment", Chart.RELEASE);
        assertEquals(
                deployment.path("spec").path("selector").path("matchLabels"),
                policy.path("spec").path("podSelector").path("matchLabels"),
                "the policy selects exactly Sluice's pods");

        List<JsonNode> rules = rules(policy);
        assertEquals(2, rules.size(), rules.toString());
        JsonNode clients = rules.get(0);
        assertEquals(Set.of(6650, 9092, 9093, 9094), ports(clients), "Pulsar, Kafka bootstrap and node ports");
        assertFalse(clients.has("from"), "any client may open the client ports");
        assertClientPortsAreTheContainers(deployment, ports(clients));

        JsonNode admin = rules.get(1);
        assertEquals(Set.of(8080), ports(admin));
        assertEquals(2, admin.path("from").size(), admin.toString());
        JsonNode namespaces = admin.path("from").get(0);
        assertFalse(namespaces.has("podSelector"), "every pod of the namespaces named");
        JsonNode expression =
                namespaces.path("namespaceSelector").path("matchExpressions").get(0);
        assertEquals("kubernetes.io/metadata.name", expression.path("key").asText());
        assertEquals("In", expression.path("operator").asText());
        assertEquals(List.of("pulsar-ops", "tools"), PodChecks.texts(expression.path("values")));
        JsonNode prometheus = admin.path("from").get(1);
        assertEquals(
                Map.of("kubernetes.io/metadata.name", "monitoring"),
                Chart.stringMap(prometheus.path("namespaceSelector").path("matchLabels")));
        assertEquals(
                Map.of("app.kubernetes.io/name", "prometheus"),
                Chart.stringMap(prometheus.path("podSelector").path("matchLabels")),
                "the Prometheus Operator's pods by default, in the same peer (namespace AND pods)");
        ChartChecks.assertStandardLabels(manifests);
    }

    @Test
    void withNobodyNamedNoRuleReachesTheAdminPort() {
        JsonNode policy =
                Chart.template(PROXY_BOTH + "networkPolicy: {enabled: true}\n").one("NetworkPolicy", Chart.RELEASE);
        List<JsonNode> rules = rules(policy);
        assertEquals(1, rules.size(), "the client rule only: " + rules);
        assertFalse(ports(rules.get(0)).contains(8080), rules.toString());
    }

    @Test
    void clientSourcesPrometheusLabelsAndExtraPeersAreValues() {
        JsonNode policy = Chart.template(PROXY_BOTH + """
                networkPolicy:
                  enabled: true
                  clientFrom:
                    - namespaceSelector: {matchLabels: {team: payments}}
                  adminFrom:
                    prometheus:
                      namespace: observability
                      podSelector: {app: prometheus-server}
                    peers:
                      - ipBlock: {cidr: 10.20.0.0/16}
                """).one("NetworkPolicy", Chart.RELEASE);
        List<JsonNode> rules = rules(policy);
        assertEquals(
                Map.of("team", "payments"),
                Chart.stringMap(rules.get(0)
                        .path("from")
                        .get(0)
                        .path("namespaceSelector")
                        .path("matchLabels")));
        JsonNode from = rules.get(1).path("from");
        assertEquals(2, from.size(), from.toString());
        assertEquals(
                Map.of("app", "prometheus-server"),
                Chart.stringMap(from.get(0).path("podSelector").path("matchLabels")),
                "a podSelector given replaces the default, it is not merged into it");
        assertEquals("10.20.0.0/16", from.get(1).path("ipBlock").path("cidr").asText());
    }

    @Test
    void aPulsarOnlyProxyOpensNoKafkaPort() {
        JsonNode policy = Chart.template(ProxyChartTest.MINIMAL + ADMIN_FROM).one("NetworkPolicy", Chart.RELEASE);
        assertEquals(Set.of(6650), ports(rules(policy).get(0)));
    }

    @Test
    void sidecarModeNeedsTheBrokersOwnRules() {
        String refusal = Chart.refusal("networkPolicy: {enabled: true}\n");
        assertTrue(refusal.contains("networkPolicy.sidecar.brokerIngress"), refusal);
    }

    @Test
    void sidecarModeSelectsTheBrokerPodsAndKeepsTheirOwnPortsOpenAsTold() {
        Manifests manifests = Chart.template(ADMIN_FROM + """
                  sidecar:
                    brokerIngress:
                      - ports: [{port: 6650}, {port: 8080}]
                      - from: [{podSelector: {matchLabels: {component: proxy}}}]
                        ports: [{port: 6650}]
                """);
        JsonNode policy = manifests.one("NetworkPolicy", Chart.RELEASE);
        assertEquals(
                Map.of("app", "pulsar", "component", "broker"),
                Chart.stringMap(policy.path("spec").path("podSelector").path("matchLabels")));
        List<JsonNode> rules = rules(policy);
        assertEquals(4, rules.size(), rules.toString());
        assertEquals(Set.of(6651), ports(rules.get(0)), "Sluice's Pulsar port in the broker pod");
        assertEquals(Set.of(8081), ports(rules.get(1)), "Sluice's admin port in the broker pod");
        assertTrue(rules.get(1).has("from"));
        assertEquals(Set.of(6650, 8080), ports(rules.get(2)), "the broker's own rules, as given");
        assertEquals(
                "proxy",
                rules.get(3)
                        .path("from")
                        .get(0)
                        .path("podSelector")
                        .path("matchLabels")
                        .path("component")
                        .asText());
    }

    @Test
    void aKafkaSidecarOpensItsBootstrapPort() {
        JsonNode policy = Chart.template("""
                kafka: {sidecar: {enabled: true}}
                networkPolicy:
                  enabled: true
                  sidecar: {brokerIngress: [{ports: [{port: 9093}]}]}
                """).one("NetworkPolicy", Chart.RELEASE);
        assertEquals(Set.of(9092), ports(rules(policy).get(0)));
    }

    @Test
    void notesSayWhoReachesTheAdminPortAndWarnWhenPrometheusCannot() {
        String named = Chart.notes(PROXY_BOTH + ADMIN_FROM);
        assertTrue(named.contains("the namespaces pulsar-ops, tools; Prometheus in monitoring; nothing else"), named);
        assertFalse(named.contains("WARNING: nothing may scrape"), named);
        String nobody = Chart.notes(PROXY_BOTH + "networkPolicy: {enabled: true}\n");
        assertTrue(nobody.contains("admits no pod at all"), nobody);
        assertTrue(nobody.contains("WARNING: nothing may scrape /metrics"), "scrape annotations are on by default");
    }

    private static List<JsonNode> rules(JsonNode policy) {
        List<JsonNode> rules = new ArrayList<>();
        policy.path("spec").path("ingress").forEach(rules::add);
        for (JsonNode rule : rules) {
            // A rule without ports admits every port, one with an empty from every source.
            assertFalse(rule.path("ports").isEmpty(), "a rule without ports: " + rule);
            assertFalse(rule.has("from") && rule.path("from").isEmpty(), "a rule with an empty from: " + rule);
        }
        return rules;
    }

    private static Set<Integer> ports(JsonNode rule) {
        Set<Integer> ports = new TreeSet<>();
        rule.path("ports").forEach(p -> {
            assertEquals("TCP", p.path("protocol").asText("TCP"));
            ports.add(p.path("port").asInt());
        });
        return ports;
    }

    /** The client rule's ports are the container's ports other than the admin port. */
    private static void assertClientPortsAreTheContainers(JsonNode deployment, Set<Integer> clientPorts) {
        JsonNode sluice =
                PodChecks.container(deployment.path("spec").path("template").path("spec"), "containers", "sluice");
        Set<Integer> containerPorts = new TreeSet<>();
        sluice.path("ports").forEach(p -> {
            if (!p.path("name").asText().equals("sluice-admin")) {
                containerPorts.add(p.path("containerPort").asInt());
            }
        });
        assertEquals(containerPorts, clientPorts);
    }
}
