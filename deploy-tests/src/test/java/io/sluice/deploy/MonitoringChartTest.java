package io.sluice.deploy;

import com.fasterxml.jackson.databind.JsonNode;
import io.sluice.deploy.Chart.Manifests;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The dashboard ConfigMap and the PrometheusRule: what the chart renders from its
 * {@code files/sluice-dashboard.json} and {@code files/sluice-alerts.yaml}, under which values.
 * That their expressions use metrics Sluice really exports is checked against a running Sluice
 * by proxy-server's MonitoringContractIT.
 */
class MonitoringChartTest {

    private static final String PROXY = ProxyChartTest.MINIMAL;

    @Test
    void theDashboardConfigMapCarriesTheGrafanaSidecarLabelAndTheDashboard() throws IOException {
        for (String values : List.of("mode: sidecar\n", PROXY)) {
            Manifests manifests = Chart.template(values);
            JsonNode configMap = manifests.one("ConfigMap", "sluice-dashboard");
            assertEquals(
                    "1",
                    Chart.stringMap(configMap.path("metadata").path("labels")).get("grafana_dashboard"),
                    values);
            assertEquals(
                    Chart.NAMESPACE,
                    configMap.path("metadata").path("namespace").asText());
            JsonNode dashboard = Chart.JSON.readTree(
                    configMap.path("data").path("sluice.json").asText());
            assertEquals(
                    Chart.JSON.readTree(Repo.read("helm/sluice/files/sluice-dashboard.json")),
                    dashboard,
                    "the ConfigMap holds the dashboard file as it is");
            assertEquals("sluice", dashboard.path("uid").asText());
            ChartChecks.assertStandardLabels(manifests);
        }
    }

    @Test
    void theDashboardsLabelsNamespaceAndAnnotationsAreValues() {
        JsonNode configMap = Chart.template("""
                grafanaDashboard:
                  labels:
                    grafana_dashboard: null
                    dashboards: sluice
                  annotations:
                    grafana_folder: Pulsar
                  namespace: monitoring
                """).one("ConfigMap", "sluice-dashboard");
        Map<String, String> labels = Chart.stringMap(configMap.path("metadata").path("labels"));
        assertEquals("sluice", labels.get("dashboards"));
        assertFalse(labels.containsKey("grafana_dashboard"), "a label set to null is dropped: " + labels);
        assertEquals(
                "Pulsar",
                configMap
                        .path("metadata")
                        .path("annotations")
                        .path("grafana_folder")
                        .asText());
        assertEquals("monitoring", configMap.path("metadata").path("namespace").asText());
    }

    @Test
    void noDashboardWhenDisabled() {
        assertFalse(Chart.template("grafanaDashboard:\n  enabled: false\n")
                .kindsAndNames()
                .contains("ConfigMap/sluice-dashboard"));
    }

    @Test
    void noPrometheusRuleUnlessEnabled() {
        assertFalse(Chart.template("mode: sidecar\n").has("PrometheusRule"));
        assertFalse(Chart.template(PROXY).has("PrometheusRule"));
    }

    @Test
    void thePrometheusRuleHoldsEveryAlertOfTheRulesFile() throws IOException {
        Manifests manifests = Chart.template(PROXY + "prometheusRule:\n  enabled: true\n");
        JsonNode rule = manifests.one("PrometheusRule", "sluice");
        JsonNode file = Chart.YAML.readTree(Repo.read("helm/sluice/files/sluice-alerts.yaml"));
        assertEquals(
                file.path("groups"),
                rule.path("spec").path("groups"),
                "with the defaults (release sluice, so job sluice) the rules are the file's as they are");
        ChartChecks.assertStandardLabels(manifests);
    }

    @Test
    void jobRuleLabelsRunbookBaseAndObjectLabelsAreValues() {
        JsonNode rule = Chart.template(PROXY + """
                prometheusRule:
                  enabled: true
                  job: pulsar/sluice-pods
                  labels:
                    release: kube-prometheus-stack
                  ruleLabels:
                    team: messaging
                  runbookBaseUrl: https://git.example.com/sluice/-/blob/main/
                """).one("PrometheusRule", "sluice");
        assertEquals(
                "kube-prometheus-stack",
                Chart.stringMap(rule.path("metadata").path("labels")).get("release"));
        List<String> jobs = new ArrayList<>();
        for (JsonNode alert : rule.path("spec").path("groups").get(0).path("rules")) {
            String name = alert.path("alert").asText();
            String expr = alert.path("expr").asText();
            assertFalse(expr.contains("job=\"sluice\""), name + ": " + expr);
            if (expr.contains("job=")) {
                jobs.add(name);
                assertTrue(expr.contains("job=\"pulsar/sluice-pods\""), name + ": " + expr);
            }
            assertEquals("messaging", alert.path("labels").path("team").asText(), name);
            assertFalse(alert.path("labels").path("severity").asText().isEmpty(), name + " keeps its severity");
            assertEquals(
                    "https://git.example.com/sluice/-/blob/main/docs/OPERATIONS.md#" + name.toLowerCase(),
                    alert.path("annotations").path("runbook_url").asText(),
                    name);
        }
        assertEquals(List.of("SluiceDown"), jobs, "only SluiceDown depends on the scrape job");
    }

    @Test
    void everyAlertHasASeverityAndARunbookInOperationsMd() throws IOException {
        JsonNode file = Chart.YAML.readTree(Repo.read("helm/sluice/files/sluice-alerts.yaml"));
        String operations = Repo.read("docs/OPERATIONS.md");
        List<String> alerts = new ArrayList<>();
        for (JsonNode group : file.path("groups")) {
            for (JsonNode rule : group.path("rules")) {
                String name = rule.path("alert").asText();
                alerts.add(name);
                assertTrue(
                        List.of("critical", "warning")
                                .contains(rule.path("labels").path("severity").asText()),
                        name);
                assertFalse(rule.path("annotations").path("summary").asText().isBlank(), name + " has a summary");
                assertEquals(
                        "docs/OPERATIONS.md#" + name.toLowerCase(),
                        rule.path("annotations").path("runbook_url").asText(),
                        name);
                int heading = operations.indexOf("\n### " + name + "\n");
                assertTrue(heading >= 0, "docs/OPERATIONS.md has no runbook heading '### " + name + "'");
                int next = operations.indexOf("\n#", heading + 1);
                assertTrue(next - heading > 200, name + "'s runbook says what to do");
            }
        }
        assertTrue(
                alerts.containsAll(List.of(
                        "SluiceDown",
                        "SluiceNotReady",
                        "SluiceUpstreamUnreachable",
                        "SluiceTopicThrottledSustained",
                        "SluiceHeldBytesNearConnectionBudget",
                        "SluiceAdmissionBreakerOpen",
                        "SluiceProtocolErrorsRising",
                        "SluiceClusterStoreStale")),
                alerts.toString());
        int cluster = operations.indexOf("\n### SluiceClusterStoreStale\n");
        assertTrue(
                operations.substring(cluster, cluster + 300).contains("cluster mode only"),
                "marked as applying to cluster mode");
    }

    @Test
    void docsHoldTheSameDashboardAndRulesAsTheChart() {
        for (String file : List.of("sluice-dashboard.json", "sluice-alerts.yaml")) {
            assertEquals(
                    Repo.read("helm/sluice/files/" + file),
                    Repo.read("docs/monitoring/" + file),
                    "docs/monitoring/" + file + " is a copy of the chart's; after changing helm/sluice/files/" + file
                            + " run: cp helm/sluice/files/" + file + " docs/monitoring/");
        }
    }
}
