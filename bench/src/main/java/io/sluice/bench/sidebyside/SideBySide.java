package io.sluice.bench.sidebyside;

import io.sluice.testbroker.PulsarBroker;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * The side-by-side suite: a real Pulsar 4.0.7 broker, Sluice's jar and Apache Pulsar's own proxy,
 * each in its own process, driven with identical loads from this JVM. Writes
 * {@code results.md} and PNG charts to {@code bench.output} (default {@code docs/bench}).
 *
 * <p>Run from the repository root with {@code bench/run.sh}; sizes are system properties (see
 * {@link BenchSettings}), and {@code -Dbench.scenarios=passthrough,accuracy,isolation} picks scenarios.
 */
public final class SideBySide {

    private SideBySide() {
    }

    public static void main(String[] args) throws Exception {
        System.setProperty("java.awt.headless", "true");
        // The Pulsar client logs every producer it creates at INFO; the suite creates hundreds.
        System.setProperty("org.slf4j.simpleLogger.defaultLogLevel", "warn");
        BenchSettings settings = BenchSettings.fromSystemProperties();
        Set<String> scenarios = Set.of(System.getProperty("bench.scenarios", "passthrough,accuracy,isolation").split(","));
        run(settings, scenarios);
        System.out.println("results in " + settings.outputDir().resolve("results.md").toAbsolutePath());
        // The Pulsar client leaves non-daemon threads behind; the shutdown hooks stop the children.
        System.exit(0);
    }

    /** Runs the chosen scenarios and writes their report; returns it. */
    static Report run(BenchSettings settings, Set<String> scenarios) throws Exception {
        Files.createDirectories(settings.outputDir());
        Path workDir = Files.createTempDirectory("sluice-bench-");
        Report report = new Report();
        report.text("Run " + LocalDateTime.now().truncatedTo(ChronoUnit.SECONDS) + "; " + settings);
        try (PulsarBroker broker = PulsarBroker.builder().config("journalFlushWhenQueueEmpty", "true").start();
             SluiceProcess sluice = SluiceProcess.start(settings.sluiceJar(), broker.serviceUrl(),
                     settings.proxyJvmOptions(), workDir);
             PulsarProxyProcess pulsarProxy = settings.pulsarProxy()
                     ? PulsarProxyProcess.start(settings.pulsarProxyJar(), broker, settings.proxyJvmOptions(), workDir)
                     : null) {
            List<Contender> contenders = new ArrayList<>();
            contenders.add(Contender.direct(broker.serviceUrl()));
            contenders.add(sluice.contender());
            if (pulsarProxy != null) {
                contenders.add(pulsarProxy.contender());
            }
            if (scenarios.contains("passthrough")) {
                PassthroughScenario.run(contenders,
                        List.of(Workload.SYNC_1KIB, Workload.ASYNC_1KIB, Workload.BATCHED_100B), settings, report);
            }
            if (scenarios.contains("accuracy")) {
                AccuracyScenario.run(sluice, broker.serviceUrl(), broker.webUrl(), settings, report);
            }
            if (scenarios.contains("isolation")) {
                IsolationScenario.run(sluice, broker.serviceUrl(), broker.webUrl(), settings, report);
            }
        } finally {
            report.write(settings.outputDir().resolve("results.md"));
            System.out.println("proxy logs and configuration in " + workDir);
        }
        return report;
    }
}
