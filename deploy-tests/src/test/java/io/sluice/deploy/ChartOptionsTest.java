package io.sluice.deploy;

import com.fasterxml.jackson.databind.JsonNode;
import io.sluice.deploy.Chart.Manifests;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Every option of docs/REFERENCE.md's option table reaches Sluice from a chart value, or is in
 * {@link #NOT_IN_CHART} with the reason; the values of the options added after 0.1.0 render as
 * their SLUICE_* variables with the server's defaults.
 */
class ChartOptionsTest {

    /** Options the chart deliberately has no value of, each with why. */
    private static final Map<String, String> NOT_IN_CHART = Map.of(
            // The chart always gives the token as a file of a mounted Secret (adminToken), never as
            // a variable of the pod spec that anyone who may read the Deployment can see.
            "SLUICE_ADMIN_TOKEN", "the token is a file of a Secret (SLUICE_ADMIN_TOKEN_FILE)",
            // The admin port listens on all addresses for probes and scrapes, so it always has a token.
            "SLUICE_ADMIN_INSECURE", "the chart always sets an admin token",
            // Every option is its own variable; a YAML file would be a second place to look.
            "SLUICE_CONFIG", "the chart sets each option as its own variable");

    /** The values with which, between them, every variable the chart can set is rendered. */
    private static final List<String> RENDERINGS = List.of(
            "mode: sidecar\n",
            "kafka: {sidecar: {enabled: true}, sslPrincipalMappingRules: DEFAULT}\n"
                    + "tls: {enabled: true, secretName: sluice-tls}\n",
            """
            mode: proxy
            replicas: 2
            upstream: pulsar+ssl://pulsar-broker:6651
            allowedBrokers: 'pulsar-broker-\\d\\.pulsar-broker:6651'
            kafka:
              upstream: kafka-0.kafka:9093
              upstreamTls: true
              lookupSasl: {mechanism: PLAIN, username: sluice, passwordSecretName: kafka-sluice}
              sslPrincipalMappingRules: DEFAULT
            tls:
              enabled: true
              secretName: sluice-tls
              clientCa: {secretName: clients-ca}
            upstreamTls: {caSecretName: broker-ca, clientCertSecretName: sluice-upstream-client}
            adminReadToken: {existingSecret: sluice-read-token}
            cluster:
              store: rediss://redis:6379
              password: {existingSecret: redis-password}
              tls: {caSecret: redis-ca}
            maxBufferedBytes: 64MiB
            dnsServers: 10.96.0.10
            """);

    private static final Pattern OPTION_ROW = Pattern.compile("^\\| `--[a-z0-9-]+[^`]*` \\| `(SLUICE_[A-Z0-9_]+)` \\|");

    @Test
    void everyDocumentedOptionHasAChartValueOrAReasonNotTo() {
        Set<String> rendered = new TreeSet<>();
        for (String values : RENDERINGS) {
            for (JsonNode podSpec : AdminTokenChartTest.sluicePodSpecs(Chart.template(values))) {
                rendered.addAll(PodChecks.env(PodChecks.container(podSpec, "containers", "sluice"))
                        .keySet());
            }
        }
        List<String> documented = documentedVariables();
        assertTrue(documented.size() > 40, "read docs/REFERENCE.md's option table: " + documented);
        List<String> missing = new ArrayList<>();
        for (String variable : documented) {
            if (!rendered.contains(variable) && !NOT_IN_CHART.containsKey(variable)) {
                missing.add(variable);
            }
            assertFalse(
                    rendered.contains(variable) && NOT_IN_CHART.containsKey(variable),
                    variable + " is in the chart and in NOT_IN_CHART");
        }
        assertEquals(List.of(), missing, "options with neither a chart value nor a reason in NOT_IN_CHART");
        for (String reasoned : NOT_IN_CHART.keySet()) {
            assertTrue(documented.contains(reasoned), reasoned + " in NOT_IN_CHART is no documented option");
        }
    }

    @Test
    void newValuesRenderWithTheServersDefaults() {
        SluiceOptions options = SluiceOptions.load();
        Map<String, JsonNode> env =
                PodChecks.env(Chart.template(ProxyChartTest.MINIMAL).proxyContainer());
        for (String option : List.of(
                "--max-connections",
                "--max-tracked-topics",
                "--max-topics-per-connection",
                "--admin-max-connections",
                "--metrics-max-identities",
                "--pulsar-role-claim")) {
            assertEquals(
                    options.defaultValue(option),
                    PodChecks.value(env, SluiceOptions.envName(option)),
                    option + ": the chart's default is the server's");
        }
        assertFalse(env.containsKey("SLUICE_DNS_SERVERS"), "no DNS servers: the pod's resolv.conf");
        assertFalse(env.containsKey("SLUICE_ADMIN_READ_TOKEN_FILE"), "no read-only token unless given");
        assertFalse(env.containsKey("SLUICE_UPSTREAM_TLS_CERT"), "no client certificate to brokers unless given");
    }

    @Test
    void newValuesReachSluice() {
        Manifests manifests = Chart.template(ProxyChartTest.MINIMAL + """
                maxConnections: 500
                maxTrackedTopics: 2000
                maxTopicsPerConnection: 300
                adminMaxConnections: 8
                dnsServers: 10.96.0.10,10.96.0.11:5353
                pulsarRoleClaim: role
                """);
        Map<String, JsonNode> env = PodChecks.env(manifests.proxyContainer());
        assertEquals("500", PodChecks.value(env, "SLUICE_MAX_CONNECTIONS"));
        assertEquals("2000", PodChecks.value(env, "SLUICE_MAX_TRACKED_TOPICS"));
        assertEquals("300", PodChecks.value(env, "SLUICE_MAX_TOPICS_PER_CONNECTION"));
        assertEquals("8", PodChecks.value(env, "SLUICE_ADMIN_MAX_CONNECTIONS"));
        assertEquals("10.96.0.10,10.96.0.11:5353", PodChecks.value(env, "SLUICE_DNS_SERVERS"));
        assertEquals("role", PodChecks.value(env, "SLUICE_PULSAR_ROLE_CLAIM"));
        PodChecks.assertNoUnknownSluiceVariables(manifests.proxyPodSpec());
    }

    @Test
    void theReadOnlyTokenIsAFileOfTheOperatorsSecretInBothModes() {
        for (String mode : List.of(ProxyChartTest.MINIMAL, "mode: sidecar\n")) {
            Manifests manifests =
                    Chart.template(mode + "adminReadToken: {existingSecret: ops-read, existingSecretKey: ro}\n");
            for (JsonNode podSpec : AdminTokenChartTest.sluicePodSpecs(manifests)) {
                JsonNode sluice = PodChecks.container(podSpec, "containers", "sluice");
                String file = PodChecks.value(PodChecks.env(sluice), "SLUICE_ADMIN_READ_TOKEN_FILE");
                JsonNode secret =
                        PodChecks.secretVolumeOf(podSpec, sluice, file).path("secret");
                assertEquals("ops-read", secret.path("secretName").asText(), mode);
                assertEquals("ro", secret.path("items").path(0).path("key").asText(), mode);
                PodChecks.assertNoSecretInEnvironmentOrCommandLine(podSpec);
            }
        }
        String unpatch = Chart.template("adminReadToken: {existingSecret: ops-read}\n")
                .configMapYaml("sluice-sidecar-patch", "unpatch.yaml")
                .toString();
        assertTrue(unpatch.contains("sluice-admin-read-token"), "the undo of the sidecar patch removes its volume");
    }

    @Test
    void theUpstreamClientCertificateIsAFileOfATlsSecret() {
        JsonNode podSpec = Chart.template("""
                        mode: proxy
                        replicas: 1
                        upstream: pulsar+ssl://pulsar-broker:6651
                        upstreamTls: {caSecretName: broker-ca, clientCertSecretName: sluice-to-brokers}
                        """).proxyPodSpec();
        JsonNode sluice = PodChecks.container(podSpec, "containers", "sluice");
        Map<String, JsonNode> env = PodChecks.env(sluice);
        for (String variable : List.of("SLUICE_UPSTREAM_TLS_CERT", "SLUICE_UPSTREAM_TLS_KEY")) {
            String file = PodChecks.value(env, variable);
            assertEquals(
                    "sluice-to-brokers",
                    PodChecks.secretVolumeOf(podSpec, sluice, file)
                            .path("secret")
                            .path("secretName")
                            .asText(),
                    variable);
        }
        assertTrue(PodChecks.value(env, "SLUICE_UPSTREAM_TLS_CERT").endsWith("/tls.crt"));
        assertTrue(PodChecks.value(env, "SLUICE_UPSTREAM_TLS_KEY").endsWith("/tls.key"));
    }

    @Test
    void anUpstreamClientCertificateWithoutTlsToTheBrokersIsRefused() {
        ChartChecks.assertRefused(
                ProxyChartTest.MINIMAL + "upstreamTls: {clientCertSecretName: sluice-to-brokers}\n",
                "upstreamTls.clientCertSecretName");
        ChartChecks.assertRefused(
                "upstreamTls: {clientCertSecretName: sluice-to-brokers}\n", "upstreamTls.clientCertSecretName");
    }

    /** The SLUICE_* variable of every row of docs/REFERENCE.md's option table. */
    private static List<String> documentedVariables() {
        List<String> variables = new ArrayList<>();
        for (String line : Repo.read("docs/REFERENCE.md").split("\n")) {
            Matcher row = OPTION_ROW.matcher(line);
            if (row.find()) {
                variables.add(row.group(1));
            }
        }
        return variables;
    }
}
