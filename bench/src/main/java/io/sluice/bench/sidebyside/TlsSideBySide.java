package io.sluice.bench.sidebyside;

import io.sluice.testkit.process.FreePorts;
import io.sluice.testkit.pulsar.PulsarBroker;
import io.sluice.testkit.tls.CertificateAuthority;
import io.sluice.testkit.tls.CertificateAuthority.IssuedCertificate;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;

/**
 * The TLS overhead suite ({@link TlsOverheadScenario}): a real Pulsar 4.0.7 broker with its TLS
 * listener, Sluice's jar and Apache Pulsar's proxy each speaking TLS to clients and to the broker,
 * with certificates of a CA made for the run; clients verify hostnames. Writes {@code results.md}
 * and its charts to {@code tls/} under {@code bench.output} (default {@code docs/bench}), apart from
 * the plaintext suite's, whose chart names they share.
 * Sizes are the system properties of {@link BenchSettings}; run it like {@link SideBySide} with
 * this class as the main class.
 */
public final class TlsSideBySide {

    private TlsSideBySide() {}

    public static void main(String[] args) throws Exception {
        System.setProperty("java.awt.headless", "true");
        System.setProperty("org.slf4j.simpleLogger.defaultLogLevel", "warn");
        BenchSettings settings = BenchSettings.fromSystemProperties();
        LoadGate.runOrRefuse(
                () -> run(settings, List.of(Workload.SYNC_1KIB, Workload.ASYNC_1KIB, Workload.BATCHED_100B)));
        System.out.println("results in "
                + settings.outputDir().resolve("tls").resolve("results.md").toAbsolutePath());
        System.exit(0);
    }

    /** Runs {@code workloads} through every contender and writes the report; returns it. */
    static Report run(BenchSettings suite, List<Workload> workloads) throws Exception {
        BenchSettings settings = suite.withOutputDir(suite.outputDir().resolve("tls"));
        String admitted = LoadGate.of(settings).admitSuite();
        Files.createDirectories(settings.outputDir());
        Path workDir = Files.createTempDirectory("sluice-bench-tls-");
        CertificateAuthority ca = CertificateAuthority.create(workDir, "bench CA");
        IssuedCertificate brokerCertificate =
                ca.issue("broker").hosts("localhost", "127.0.0.1").write();
        IssuedCertificate proxyCertificate =
                ca.issue("proxy").hosts("localhost", "127.0.0.1").write();
        PulsarClients.trust(ca.certificateFile());
        Report report = new Report();
        report.text("Run " + LocalDateTime.now().truncatedTo(ChronoUnit.SECONDS) + "; " + settings
                + "; EC P-256 certificates, clients verify hostnames");
        report.text(admitted);
        try (PulsarBroker broker = BenchBrokers.pulsar()
                        .tls(brokerCertificate.certificate(), brokerCertificate.key(), ca.certificateFile())
                        .start();
                SluiceContender sluice = SluiceContender.start(
                        settings.sluiceJar(),
                        broker.serviceUrlTls(),
                        settings.proxyJvmOptions(),
                        workDir,
                        "--upstream-tls-ca",
                        ca.certificateFile().toString(),
                        "--tls-cert",
                        proxyCertificate.certificate().toString(),
                        "--tls-key",
                        proxyCertificate.key().toString())) {
            int proxyTlsPort = FreePorts.loopback();
            try (PulsarProxyProcess pulsarProxy = settings.pulsarProxy()
                    ? PulsarProxyProcess.start(
                            settings.pulsarProxyJar(),
                            broker,
                            settings.proxyJvmOptions(),
                            workDir,
                            List.of(
                                    "servicePortTls=" + proxyTlsPort,
                                    "tlsCertificateFilePath=" + proxyCertificate.certificate(),
                                    "tlsKeyFilePath=" + proxyCertificate.key(),
                                    "tlsEnabledWithBroker=true",
                                    "brokerServiceURLTLS=" + broker.serviceUrlTls(),
                                    // Required with tlsEnabledWithBroker; only HTTP admin requests would use it.
                                    "brokerWebServiceURLTLS=https://127.0.0.1:" + broker.webPort(),
                                    "brokerClientTrustCertsFilePath=" + ca.certificateFile(),
                                    "tlsHostnameVerificationEnabled=true",
                                    "brokerProxyAllowedTargetPorts=" + broker.brokerPort() + "," + broker.tlsPort()))
                    : null) {
                List<Contender> contenders = new ArrayList<>();
                contenders.add(new Contender("direct TLS", broker.serviceUrlTls(), -1));
                contenders.add(sluice.contender("Sluice, TLS both legs", "pulsar+ssl"));
                if (pulsarProxy != null) {
                    contenders.add(pulsarProxy.contender(
                            "Pulsar proxy, TLS both legs", "pulsar+ssl://127.0.0.1:" + proxyTlsPort));
                }
                contenders.add(Contender.direct(broker.serviceUrl()).renamed("direct plaintext"));
                List<Long> suitePids =
                        new ArrayList<>(List.of(ProcessHandle.current().pid(), broker.pid()));
                contenders.stream().filter(Contender::hasProxy).forEach(c -> suitePids.add(c.proxyPid()));
                TlsOverheadScenario.run(contenders, workloads, suitePids, settings, workDir, report);
            }
        } finally {
            report.write(settings.outputDir());
            System.out.println("proxy logs and configuration in " + workDir);
        }
        return report;
    }
}
