package io.sluice.server;

import io.sluice.kafka.frontend.KafkaConfig;
import io.sluice.pulsar.frontend.PulsarConfig;
import io.sluice.relay.ProxyStats;
import io.sluice.testkit.tls.CertificateAuthority;
import io.sluice.testkit.tls.CertificateAuthority.IssuedCertificate;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import static io.sluice.server.OpenAdminParse.parse;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The TLS and token-file options: from flags, environment or config file like every option,
 * combinations that cannot work refused with the option named, and files that cannot be used
 * refused at start with the option and the file named.
 */
class TlsOptionsTest {

    @TempDir
    Path dir;

    private final PrintStream out = new PrintStream(new ByteArrayOutputStream());

    @Test
    void plaintextUnlessAsked() {
        SluiceConfig config = parse(new String[] {"--upstream", "pulsar://broker:6650"}, Map.of(), out);
        assertEquals(TlsConfig.NONE, config.tls());
        assertNull(config.adminTokenFile());
    }

    @Test
    void filesComeFromEnvironmentAndConfigFileAndPulsarSslMeansTlsUpstream() throws Exception {
        Path yaml = Files.writeString(
                dir.resolve("sluice.yaml"),
                "upstream: pulsar+ssl://broker:6651\n"
                        + "tlsCert: /etc/sluice/tls/tls.crt\ntlsKey: /etc/sluice/tls/tls.key\nupstreamTlsCa: /etc/ca/ca.crt\n");
        Map<String, String> env = Map.of(
                "SLUICE_CONFIG",
                yaml.toString(),
                "SLUICE_TLS_CLIENT_CA",
                "/etc/sluice/clients/ca.crt",
                "SLUICE_ADMIN_TOKEN_FILE",
                "/etc/sluice/token/admin-token");
        SluiceConfig config = parse(new String[] {}, env, out);
        assertEquals(
                new TlsConfig(
                        Path.of("/etc/sluice/tls/tls.crt"),
                        Path.of("/etc/sluice/tls/tls.key"),
                        Path.of("/etc/sluice/clients/ca.crt"),
                        Path.of("/etc/ca/ca.crt"),
                        null,
                        null),
                config.tls());
        assertTrue(pulsar(config).upstreamTls());
        assertEquals("broker", pulsar(config).upstream().host());
        assertEquals(6651, pulsar(config).upstream().port());
        assertEquals(
                "broker",
                pulsar(config).allowedBrokers().resolve("broker:6651").host(),
                "the TLS port is the upstream");
        assertEquals(Path.of("/etc/sluice/token/admin-token"), config.adminTokenFile());
        assertNull(config.adminToken());
    }

    @Test
    void kafkaUpstreamTlsIsAFlagTheEnvironmentOrConfigFileMaySetAndTakesTheUpstreamCa() throws Exception {
        SluiceConfig flag = parse(
                new String[] {
                    "--kafka-upstream", "kafka:9093", "--kafka-upstream-tls", "--upstream-tls-ca", "/etc/ca/kafka.crt"
                },
                Map.of(),
                out);
        assertEquals(new TlsConfig(null, null, null, Path.of("/etc/ca/kafka.crt"), null, null), flag.tls());
        SluiceConfig presenting = parse(
                new String[] {"--kafka-upstream", "kafka:9093", "--kafka-upstream-tls"},
                Map.of(
                        "SLUICE_UPSTREAM_TLS_CERT", "/etc/sluice/upstream/tls.crt",
                        "SLUICE_UPSTREAM_TLS_KEY", "/etc/sluice/upstream/tls.key"),
                out);
        assertEquals(
                new TlsConfig(
                        null,
                        null,
                        null,
                        null,
                        Path.of("/etc/sluice/upstream/tls.crt"),
                        Path.of("/etc/sluice/upstream/tls.key")),
                presenting.tls());
        assertTrue(kafka(flag).upstreamTls());
        SluiceConfig env = parse(
                new String[] {"--kafka-upstream", "kafka:9093"}, Map.of("SLUICE_KAFKA_UPSTREAM_TLS", "true"), out);
        assertTrue(kafka(env).upstreamTls());
        assertFalse(pulsar(env) != null && pulsar(env).upstreamTls(), "the Pulsar upstream is not TLS for that");
        Path yaml =
                Files.writeString(dir.resolve("kafka.yaml"), "kafkaUpstream: kafka:9093\nkafkaUpstreamTls: false\n");
        assertFalse(kafka(parse(new String[] {"--config", yaml.toString()}, Map.of(), out))
                .upstreamTls());
    }

    @Test
    void combinationsThatCannotWorkAreRefusedNamingTheOption() {
        assertMessage("invalid --tls-cert: needs --tls-key", "--tls-cert", "a.crt");
        assertMessage("invalid --tls-key: needs --tls-cert", "--tls-key", "a.key");
        assertMessage("invalid --tls-client-ca: needs --tls-cert", "--tls-client-ca", "ca.crt");
        assertMessage(
                "invalid --upstream-tls-ca: used only when --upstream is pulsar+ssl://", "--upstream-tls-ca", "ca.crt");
        assertMessage("invalid --kafka-upstream-tls: needs --kafka-upstream", "--kafka-upstream-tls");
        assertMessage("invalid --upstream-tls-cert: needs --upstream-tls-key", "--upstream-tls-cert", "a.crt");
        assertMessage("invalid --upstream-tls-key: needs --upstream-tls-cert", "--upstream-tls-key", "a.key");
        assertMessage(
                "invalid --upstream-tls-cert: used only when --upstream is pulsar+ssl://",
                "--upstream-tls-cert",
                "a.crt",
                "--upstream-tls-key",
                "a.key");
        assertMessage(
                "invalid --admin-token-file: give --admin-token or --admin-token-file, not both",
                "--admin-token",
                "t",
                "--admin-token-file",
                "token");
    }

    @Test
    void filesThatCannotBeUsedStopTheStartNamingOptionAndFile() throws Exception {
        CertificateAuthority ca = CertificateAuthority.create(dir, "options CA");
        IssuedCertificate server = ca.issue("server").hosts("localhost").write();
        IssuedCertificate other = ca.issue("other").write();
        assertStartRefused(
                "invalid --tls-cert: " + dir.resolve("absent.crt") + ": no such file",
                new TlsConfig(dir.resolve("absent.crt"), server.key(), null, null, null, null),
                null);
        assertStartRefused(
                "invalid --tls-key: " + other.key() + ": the private key does not belong",
                new TlsConfig(server.certificate(), other.key(), null, null, null, null),
                null);
        assertStartRefused(
                "invalid --tls-client-ca: " + other.key() + ": no PEM certificate",
                new TlsConfig(server.certificate(), server.key(), other.key(), null, null, null),
                null);
        assertStartRefused(
                "invalid --upstream-tls-ca: " + dir.resolve("none.crt"),
                new TlsConfig(null, null, null, dir.resolve("none.crt"), null, null),
                null);
        assertStartRefused(
                "invalid --upstream-tls-key: " + other.key() + ": the private key does not belong",
                new TlsConfig(null, null, null, ca.certificateFile(), server.certificate(), other.key()),
                null);
        Path empty = Files.writeString(dir.resolve("empty-token"), "\n");
        assertStartRefused("invalid --admin-token-file: " + empty + ": empty", TlsConfig.NONE, empty);
    }

    /** With an upstream CA, the upstream speaks TLS. */
    private void assertStartRefused(String expected, TlsConfig tls, Path tokenFile) {
        SluiceConfig config = parse(
                new String[] {"--upstream", tls.upstreamCa() != null ? "pulsar+ssl://b:6651" : "pulsar://b:6650"},
                Map.of(),
                out);
        SluiceConfig withFiles = new SluiceConfig(
                config.frontEnds(),
                config.admin(),
                config.limitsFile(),
                null,
                config.metricsMaxTopics(),
                config.metricsMaxIdentities(),
                config.drainTimeout(),
                config.handshakeTimeout(),
                config.adminIdleTimeout(),
                config.admission(),
                config.cluster(),
                tls,
                tokenFile,
                config.adminAccess(),
                config.bounds(),
                config.dnsServers(),
                config.proxyProtocol(),
                config.logging());
        IllegalArgumentException e = assertThrows(
                IllegalArgumentException.class,
                () -> SecretFiles.open(withFiles, List.of(new ProxyStats("pulsar")), Duration.ofSeconds(1))
                        .close());
        assertTrue(e.getMessage().startsWith(expected), e.getMessage());
        assertFalse(e.getMessage().contains("\n"), "one line");
    }

    private static PulsarConfig pulsar(SluiceConfig config) {
        return config.frontEnd(PulsarConfig.class);
    }

    private static KafkaConfig kafka(SluiceConfig config) {
        return config.frontEnd(KafkaConfig.class);
    }

    private void assertMessage(String expected, String... options) {
        String[] args = new String[options.length + 2];
        args[0] = "--upstream";
        args[1] = "pulsar://b:6650";
        System.arraycopy(options, 0, args, 2, options.length);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> parse(args, Map.of(), out));
        assertTrue(e.getMessage().startsWith(expected), e.getMessage());
    }
}
