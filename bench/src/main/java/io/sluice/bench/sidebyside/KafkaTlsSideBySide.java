package io.sluice.bench.sidebyside;

import io.sluice.testkit.kafka.KafkaCluster;
import io.sluice.testkit.tls.CertificateAuthority;
import io.sluice.testkit.tls.CertificateAuthority.IssuedCertificate;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.common.config.SslConfigs;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The Kafka TLS suite: what TLS on both legs costs through each proxy. A real three-broker KRaft
 * cluster with an SSL listener, Sluice's jar and Kroxylicious each speaking TLS to clients and to
 * the brokers (certificates of a CA made for the run; clients and proxies verify host names), and
 * the same loads as {@link KafkaSideBySide} directly to the brokers' SSL listener, through each
 * proxy, and directly in plaintext for scale; "vs direct" compares with direct TLS. Writes
 * {@code kafka-results.md} and its charts to {@code kafka-tls/} under {@code bench.output}
 * (default {@code docs/bench}).
 *
 * <p>Run from the repository root with {@code bench/run.sh kafka-tls}; sizes are the system
 * properties of {@link BenchSettings}, plus {@code -Dbench.kroxylicious=false} (leave Kroxylicious
 * out).
 */
public final class KafkaTlsSideBySide {

    private KafkaTlsSideBySide() {}

    public static void main(String[] args) throws Exception {
        System.setProperty("java.awt.headless", "true");
        System.setProperty("org.slf4j.simpleLogger.defaultLogLevel", "warn");
        BenchSettings settings = BenchSettings.fromSystemProperties();
        boolean kroxylicious = Boolean.parseBoolean(System.getProperty("bench.kroxylicious", "true"));
        LoadGate.runOrRefuse(() -> run(settings, kroxylicious));
        System.out.println("results in "
                + settings.outputDir()
                        .resolve("kafka-tls")
                        .resolve("kafka-results.md")
                        .toAbsolutePath());
        System.exit(0);
    }

    /**
     * Runs the suite and writes its report; returns it.
     *
     * @param kroxylicious whether Kroxylicious is a contender
     * @throws LoadGate.BusyMachine if the machine is too busy to measure on
     */
    static Report run(BenchSettings suite, boolean kroxylicious) throws Exception {
        BenchSettings settings = suite.withOutputDir(suite.outputDir().resolve("kafka-tls"));
        LoadGate gate = LoadGate.of(settings);
        String admitted = gate.admitSuite();
        Files.createDirectories(settings.outputDir());
        Path workDir = Files.createTempDirectory("sluice-kafka-tls-bench-");
        CertificateAuthority ca = CertificateAuthority.create(workDir, "bench CA");
        IssuedCertificate brokerCertificate =
                ca.issue("broker").hosts("localhost", "127.0.0.1").write();
        IssuedCertificate proxyCertificate =
                ca.issue("proxy").hosts("localhost", "127.0.0.1").write();
        Map<String, String> tlsClient = Map.of(
                CommonClientConfigs.SECURITY_PROTOCOL_CONFIG, "SSL",
                SslConfigs.SSL_TRUSTSTORE_TYPE_CONFIG, "PEM",
                SslConfigs.SSL_TRUSTSTORE_LOCATION_CONFIG, ca.certificateFile().toString());
        Report report = new Report();
        report.text("Run " + LocalDateTime.now().truncatedTo(ChronoUnit.SECONDS) + "; " + settings + " on "
                + Runtime.getRuntime().availableProcessors() + " CPUs; EC P-256 certificates, clients and"
                + " proxies verify host names; the brokers' TLS is the JDK's in each broker");
        report.text(admitted);
        report.figures().describe("load gate", admitted);
        int brokers = KafkaSideBySide.BROKERS;
        try (KafkaCluster cluster = BenchBrokers.kafka(brokers)
                        .tls(brokerCertificate.certificate(), brokerCertificate.key())
                        .start();
                KafkaSluiceContender sluice = KafkaSluiceContender.start(
                        settings.sluiceJar(),
                        cluster.sslBootstrapServers(),
                        brokers,
                        settings.proxyJvmOptions(),
                        workDir,
                        "--tls-cert",
                        proxyCertificate.certificate().toString(),
                        "--tls-key",
                        proxyCertificate.key().toString(),
                        "--kafka-upstream-tls",
                        "--upstream-tls-ca",
                        ca.certificateFile().toString());
                KroxyliciousProcess kroxy = kroxylicious
                        ? KroxyliciousProcess.start(
                                cluster.sslBootstrapServers(),
                                cluster.nodeIds(),
                                settings.proxyJvmOptions(),
                                workDir,
                                new KroxyliciousProcess.BothLegsTls(
                                        proxyCertificate.certificate(), proxyCertificate.key(), ca.certificateFile()))
                        : null) {
            List<Contender> contenders = new ArrayList<>();
            contenders.add(new Contender("direct TLS", cluster.sslBootstrapServers(), -1, tlsClient));
            contenders.add(sluice.contender("Sluice, TLS both legs").withClientSettings(tlsClient));
            if (kroxy != null) {
                // Named as in the plaintext suite, so that its "against Kroxylicious" ratios follow.
                contenders.add(kroxy.contender().withClientSettings(tlsClient));
            }
            contenders.add(Contender.direct(cluster.bootstrapServers()).renamed("direct plaintext"));
            List<KafkaWorkload> workloads = List.of(KafkaWorkload.BATCHED_100B, KafkaWorkload.SYNC_1KIB);
            KafkaSideBySide.createTopics(cluster.bootstrapServers(), workloads);
            KafkaOverheadScenario.run(contenders, workloads, settings, gate, workDir, report);
            report.text("Kroxylicious appears as `" + KroxyliciousProcess.NAME + "`, with TLS on both legs like"
                    + " Sluice. Load average at the end: " + LoadAverage.now());
        } finally {
            report.write(settings.outputDir(), "kafka-results");
            System.out.println("Sluice's and Kroxylicious's logs in " + workDir);
        }
        return report;
    }
}
