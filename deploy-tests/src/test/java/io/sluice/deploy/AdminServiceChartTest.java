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
 * The admin port (API, /metrics, probes) has its own ClusterIP Service and is never on the
 * client-facing one, in every mode and whatever {@code service.type} is; what scrapes /metrics
 * follows it (docs/OPERATIONS.md, "Deploy").
 */
class AdminServiceChartTest {

    /** Every shape of front end the chart renders, with the admin port each one uses. */
    private static final Map<String, Integer> RENDERINGS = Map.of(
            "mode: sidecar\n",
            8081,
            "kafka: {sidecar: {enabled: true}}\nsidecar: {adminPort: 9181}\n",
            9181,
            ProxyChartTest.MINIMAL,
            8080,
            ProxyChartTest.MINIMAL + "kafka: {upstream: 'kafka:9092'}\nadminPort: 18080\n",
            18080,
            "mode: proxy\nreplicas: 1\nkafka: {upstream: 'kafka:9092'}\nservice: {type: LoadBalancer}\n",
            8080);

    @Test
    void theAdminPortIsOnItsOwnClusterIpServiceInEveryMode() {
        RENDERINGS.forEach((values, adminPort) -> {
            Manifests manifests = Chart.template(values);
            JsonNode client = manifests.one("Service", Chart.RELEASE);
            ChartChecks.assertNoAdminPort(client, adminPort);
            assertFalse(client.path("spec").path("ports").isEmpty(), values + ": the client Service has client ports");
            JsonNode admin = ChartChecks.adminService(manifests);
            assertEquals(
                    adminPort,
                    ChartChecks.servicePort(admin, "admin").path("port").asInt(),
                    values);
            ChartChecks.assertStandardLabels(manifests);
        });
    }

    @Test
    void aLoadBalancerForClientsLeavesTheAdminServiceClusterIp() {
        Manifests manifests = Chart.template(
                "mode: proxy\nreplicas: 1\nkafka: {upstream: 'kafka:9092'}\nservice: {type: LoadBalancer}\n");
        assertEquals(
                "LoadBalancer",
                manifests
                        .one("Service", Chart.RELEASE)
                        .path("spec")
                        .path("type")
                        .asText());
        assertEquals(
                "ClusterIP",
                manifests
                        .one("Service", ChartChecks.ADMIN_SERVICE)
                        .path("spec")
                        .path("type")
                        .asText());
    }

    @Test
    void theServiceMonitorScrapesTheAdminServiceInBothModes() {
        for (String values : List.of("mode: sidecar\n", ProxyChartTest.MINIMAL)) {
            ChartChecks.assertServiceMonitorScrapes(Chart.template(values + "serviceMonitor: {enabled: true}\n"));
        }
    }

    @Test
    void sidecarScrapeAnnotationsAreOnTheAdminServiceOnly() {
        Manifests sidecar = Chart.template("mode: sidecar\n");
        ChartChecks.assertScrapeAnnotations(
                sidecar.one("Service", ChartChecks.ADMIN_SERVICE)
                        .path("metadata")
                        .path("annotations"),
                8081);
        ChartChecks.assertNoScrapeAnnotations(
                sidecar.one("Service", Chart.RELEASE).path("metadata").path("annotations"));
        // In proxy mode the pods carry them, on the admin port (ProxyChartTest).
        Manifests proxy = Chart.template(ProxyChartTest.MINIMAL);
        for (String name : List.of(Chart.RELEASE, ChartChecks.ADMIN_SERVICE)) {
            ChartChecks.assertNoScrapeAnnotations(
                    proxy.one("Service", name).path("metadata").path("annotations"));
        }
    }

    @Test
    void serviceAnnotationsStayOnTheClientService() {
        Manifests manifests = Chart.template(ProxyChartTest.MINIMAL + """
                service:
                  type: LoadBalancer
                  annotations: {service.beta.kubernetes.io/aws-load-balancer-scheme: internet-facing}
                """);
        assertTrue(manifests
                .one("Service", Chart.RELEASE)
                .path("metadata")
                .path("annotations")
                .has("service.beta.kubernetes.io/aws-load-balancer-scheme"));
        assertFalse(manifests
                .one("Service", ChartChecks.ADMIN_SERVICE)
                .path("metadata")
                .has("annotations"));
    }

    @Test
    void notesNameTheAdminService() {
        assertTrue(Chart.notes("mode: sidecar\n").contains("http://sluice-admin.pulsar.svc.cluster.local:8081"));
        String proxy = Chart.notes(ProxyChartTest.MINIMAL);
        assertTrue(proxy.contains("http://sluice-admin.pulsar.svc.cluster.local:8080"), proxy);
        assertFalse(
                proxy.contains("sluice.pulsar.svc.cluster.local:8080"), "never the client Service's name: " + proxy);
    }
}
