package io.sluice.deploy;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** What `helm install` prints: the broker.conf lines and patch commands (sidecar), the service URL (proxy). */
class NotesTest {

    @Test
    void sidecarNotesGiveTheBrokerListenersAndThePatchCommands() {
        String notes = Chart.notes("mode: sidecar\n");
        assertLines(
                notes,
                "advertisedListeners=internal:pulsar://$(hostname -f):6650,external:pulsar://$(hostname -f):6651",
                "internalListenerName=internal",
                "bindAddresses=external:pulsar://127.0.0.1:6652");
        assertContains(notes, "--lookup-mode passthrough --upstream pulsar://127.0.0.1:6652 --listen 0.0.0.0:6651");
        assertContains(
                notes,
                "kubectl -n pulsar get configmap sluice-sidecar-patch -o jsonpath='{.data.patch\\.yaml}' > sluice-sidecar-patch.yaml");
        assertContains(
                notes,
                "kubectl -n pulsar patch statefulset pulsar-broker --type strategic --patch-file sluice-sidecar-patch.yaml");
        assertContains(notes, "pulsar://sluice.pulsar.svc.cluster.local:6651");
    }

    @Test
    void sidecarNotesMatchThePatchTheyApply() {
        String values = """
                sidecar:
                  statefulSet: brokers
                  port: 7651
                  brokerBindPort: 7652
                  brokerPort: 7650
                """;
        String notes = Chart.notes(values);
        assertLines(
                notes,
                "advertisedListeners=internal:pulsar://$(hostname -f):7650,external:pulsar://$(hostname -f):7651",
                "bindAddresses=external:pulsar://127.0.0.1:7652");
        assertContains(notes, "patch statefulset brokers ");

        JsonNode sluice = PodChecks.container(
                Chart.template(values)
                        .configMapYaml("sluice-sidecar-patch", "patch.yaml")
                        .path("spec")
                        .path("template")
                        .path("spec"),
                "containers",
                "sluice");
        Map<String, JsonNode> env = PodChecks.env(sluice);
        assertContains(notes, "--upstream " + PodChecks.value(env, "SLUICE_UPSTREAM") + " ");
        assertContains(notes, "--listen " + PodChecks.value(env, "SLUICE_LISTEN") + " ");
        assertContains(notes, "--admin " + PodChecks.value(env, "SLUICE_ADMIN"));
    }

    @Test
    void proxyNotesGiveTheServiceUrlAndWarnWithoutAnAllowList() {
        String notes = Chart.notes(ProxyChartTest.MINIMAL);
        assertContains(notes, "pulsar://sluice.pulsar.svc.cluster.local:6650");
        assertContains(notes, "WARNING: allowedBrokers is empty");
        assertFalse(notes.contains("advertisedListeners"), "broker.conf lines are for the sidecar only");

        String allowed = Chart.notes(ProxyChartTest.MINIMAL + "allowedBrokers: 'pulsar-broker-\\d+:6650'\n");
        assertFalse(allowed.contains("WARNING"), allowed);
    }

    @Test
    void withTlsTheUrlsArePulsarSslAndHttps() {
        String notes = Chart.notes(ProxyChartTest.MINIMAL + "tls: {enabled: true, secretName: sluice-tls}\n");
        assertContains(notes, "pulsar+ssl://sluice.pulsar.svc.cluster.local:6650");
        assertContains(notes, "https://sluice-admin.pulsar.svc.cluster.local:8080");
        assertContains(notes, "Secret sluice-tls");
    }

    private static void assertLines(String notes, String... lines) {
        for (String line : lines) {
            assertTrue(
                    notes.lines().anyMatch(l -> l.strip().equals(line)),
                    "NOTES lack the line\n  " + line + "\n" + notes);
        }
    }

    private static void assertContains(String notes, String text) {
        assertTrue(notes.contains(text), "NOTES lack\n  " + text + "\n" + notes);
    }
}
