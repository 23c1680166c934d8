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
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * TLS from Secrets: the certificate, key and CAs reach Sluice as files of whole Secret volumes
 * (so rotations reach it), probes and scrapes switch to HTTPS, cert-manager can issue the
 * certificate, the sidecar patch and its undo carry the volumes, and values that cannot work are
 * refused at install.
 */
class TlsChartTest {

    private static final String PROXY_TLS = """
            mode: proxy
            replicas: 1
            upstream: pulsar+ssl://pulsar-broker:6651
            tls:
              enabled: true
              secretName: sluice-tls
              clientCa:
                secretName: pulsar-clients-ca
                key: clients.crt
            upstreamTls:
              caSecretName: pulsar-broker-ca
            serviceMonitor:
              enabled: true
              tlsConfig:
                serverName: sluice.pulsar.svc
            """;

    @Test
    void certificateKeyAndCasAreFilesOfWholeSecretVolumes() {
        Manifests manifests = Chart.template(PROXY_TLS);
        JsonNode podSpec = manifests
                .one("Deployment", "sluice")
                .path("spec")
                .path("template")
                .path("spec");
        JsonNode sluice = PodChecks.container(podSpec, "containers", "sluice");
        Map<String, JsonNode> env = PodChecks.env(sluice);
        assertEquals("pulsar+ssl://pulsar-broker:6651", PodChecks.value(env, "SLUICE_UPSTREAM"));
        assertSecretFile(podSpec, sluice, PodChecks.value(env, "SLUICE_TLS_CERT"), "sluice-tls", "tls.crt");
        assertSecretFile(podSpec, sluice, PodChecks.value(env, "SLUICE_TLS_KEY"), "sluice-tls", "tls.key");
        assertSecretFile(
                podSpec, sluice, PodChecks.value(env, "SLUICE_TLS_CLIENT_CA"), "pulsar-clients-ca", "clients.crt");
        assertSecretFile(podSpec, sluice, PodChecks.value(env, "SLUICE_UPSTREAM_TLS_CA"), "pulsar-broker-ca", "ca.crt");
        PodChecks.assertNoSecretInEnvironmentOrCommandLine(podSpec);
        PodChecks.assertNoUnknownSluiceVariables(podSpec);
    }

    @Test
    void aKafkaProxySpeaksTlsToTheBrokersWithTheCaFromASecret() {
        JsonNode podSpec = Chart.template("""
                mode: proxy
                replicas: 1
                kafka:
                  upstream: kafka-0.kafka:9093
                  upstreamTls: true
                tls: {enabled: true, secretName: sluice-tls}
                upstreamTls: {caSecretName: kafka-ca}
                """)
                .one("Deployment", "sluice")
                .path("spec")
                .path("template")
                .path("spec");
        JsonNode sluice = PodChecks.container(podSpec, "containers", "sluice");
        Map<String, JsonNode> env = PodChecks.env(sluice);
        assertEquals("true", PodChecks.value(env, "SLUICE_KAFKA_UPSTREAM_TLS"));
        assertSecretFile(podSpec, sluice, PodChecks.value(env, "SLUICE_UPSTREAM_TLS_CA"), "kafka-ca", "ca.crt");
        assertSecretFile(podSpec, sluice, PodChecks.value(env, "SLUICE_TLS_CERT"), "sluice-tls", "tls.crt");
        PodChecks.assertNoSecretInEnvironmentOrCommandLine(podSpec);
        PodChecks.assertNoUnknownSluiceVariables(podSpec);
    }

    @Test
    void probesAndScrapesUseHttps() {
        Manifests manifests = Chart.template(PROXY_TLS);
        JsonNode pod = manifests.one("Deployment", "sluice").path("spec").path("template");
        JsonNode sluice = PodChecks.container(pod.path("spec"), "containers", "sluice");
        assertEquals(
                "HTTPS",
                sluice.path("livenessProbe").path("httpGet").path("scheme").asText());
        assertEquals(
                "HTTPS",
                sluice.path("readinessProbe").path("httpGet").path("scheme").asText());
        assertEquals(
                "https",
                pod.path("metadata")
                        .path("annotations")
                        .path("prometheus.io/scheme")
                        .asText());
        JsonNode endpoint = manifests
                .one("ServiceMonitor", "sluice")
                .path("spec")
                .path("endpoints")
                .path(0);
        assertEquals("https", endpoint.path("scheme").asText());
        assertEquals(
                "sluice.pulsar.svc",
                endpoint.path("tlsConfig").path("serverName").asText());

        JsonNode plain = PodChecks.container(
                Chart.template(ProxyChartTest.MINIMAL)
                        .one("Deployment", "sluice")
                        .path("spec")
                        .path("template")
                        .path("spec"),
                "containers",
                "sluice");
        assertEquals(
                "HTTP",
                plain.path("readinessProbe").path("httpGet").path("scheme").asText());
        assertFalse(PodChecks.env(plain).containsKey("SLUICE_TLS_CERT"), "plaintext unless asked");
    }

    @Test
    void certManagerIssuesTheCertificateIntoTheSecretSluiceReads() {
        Manifests manifests = Chart.template("""
                mode: proxy
                replicas: 1
                upstream: pulsar://pulsar-broker:6650
                tls:
                  enabled: true
                  certManager:
                    enabled: true
                    issuerRef: {name: pulsar-ca, kind: ClusterIssuer}
                """);
        JsonNode certificate = manifests.one("Certificate", "sluice");
        assertEquals("cert-manager.io/v1", certificate.path("apiVersion").asText());
        assertEquals("sluice-tls", certificate.path("spec").path("secretName").asText());
        assertEquals(
                "pulsar-ca",
                certificate.path("spec").path("issuerRef").path("name").asText());
        assertEquals(
                "ClusterIssuer",
                certificate.path("spec").path("issuerRef").path("kind").asText());
        assertEquals(
                "Always",
                certificate
                        .path("spec")
                        .path("privateKey")
                        .path("rotationPolicy")
                        .asText());
        List<String> dnsNames = PodChecks.texts(certificate.path("spec").path("dnsNames"));
        assertTrue(
                dnsNames.containsAll(List.of(
                        "sluice.pulsar.svc",
                        "sluice.pulsar.svc.cluster.local",
                        "sluice-admin.pulsar.svc",
                        "sluice-admin.pulsar.svc.cluster.local")),
                "the client and the admin Service's names: " + dnsNames);
        JsonNode podSpec = manifests
                .one("Deployment", "sluice")
                .path("spec")
                .path("template")
                .path("spec");
        assertEquals(
                "sluice-tls",
                PodChecks.volume(podSpec, "sluice-tls")
                        .path("secret")
                        .path("secretName")
                        .asText());
        ChartChecks.assertStandardLabels(manifests);
    }

    @Test
    void theSidecarPatchCarriesTheTlsVolumesAndItsUndoRemovesThem() {
        Manifests manifests = Chart.template("""
                mode: sidecar
                tls:
                  enabled: true
                  secretName: broker-sluice-tls
                  clientCa: {secretName: clients-ca}
                """);
        JsonNode podSpec = manifests
                .configMapYaml("sluice-sidecar-patch", "patch.yaml")
                .path("spec")
                .path("template")
                .path("spec");
        JsonNode sluice = PodChecks.container(podSpec, "containers", "sluice");
        assertSecretFile(
                podSpec,
                sluice,
                PodChecks.value(PodChecks.env(sluice), "SLUICE_TLS_KEY"),
                "broker-sluice-tls",
                "tls.key");
        Set<String> added = new TreeSet<>();
        podSpec.path("volumes").forEach(v -> added.add(v.path("name").asText()));
        Set<String> removed = new TreeSet<>();
        manifests
                .configMapYaml("sluice-sidecar-patch", "unpatch.yaml")
                .path("spec")
                .path("template")
                .path("spec")
                .path("volumes")
                .forEach(v -> removed.add(v.path("name").asText()));
        assertEquals(added, removed);
        assertTrue(added.containsAll(Set.of("sluice-tls", "sluice-client-ca", "sluice-admin-token")), added.toString());
        assertTrue(
                Chart.notes("mode: sidecar\ntls: {enabled: true, secretName: s}\n")
                        .contains("external:pulsar+ssl://$(hostname -f):6651"),
                "the broker advertises Sluice's TLS port");
    }

    @Test
    void valuesThatCannotWorkAreRefused() {
        ChartChecks.assertRefused("tls:\n  enabled: true\n", "tls.secretName");
        ChartChecks.assertRefused("tls:\n  enabled: true\n  certManager: {enabled: true}\n", "issuerRef.name");
        ChartChecks.assertRefused("tls:\n  clientCa: {secretName: ca}\n", "tls.enabled");
        ChartChecks.assertRefused(
                "mode: proxy\nreplicas: 1\nupstream: pulsar://b:6650\nupstreamTls: {caSecretName: ca}\n",
                "pulsar+ssl://");
        ChartChecks.assertRefused(
                "mode: proxy\nreplicas: 1\nupstream: pulsar://b:6650\nkafka: {upstreamTls: true}\n", "kafka.upstream");
    }

    private static void assertSecretFile(JsonNode podSpec, JsonNode container, String file, String secret, String key) {
        JsonNode volume = PodChecks.secretVolumeOf(podSpec, container, file);
        assertEquals(secret, volume.path("secret").path("secretName").asText(), file);
        assertTrue(file.endsWith("/" + key), file + " is the Secret's key " + key);
    }
}
