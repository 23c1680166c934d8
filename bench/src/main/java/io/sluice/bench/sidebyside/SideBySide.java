package io.sluice.bench.sidebyside;

import io.sluice.testkit.pulsar.PulsarBroker;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * The side-by-side suite: a real Pulsar 4.0.7 broker, Sluice's jar and Apache Pulsar's own proxy,
 * each in its own process, driven with identical loads from this JVM. Writes
 * {@code results.md} and PNG charts to {@code bench.output} (default {@code docs/bench}).
 *
 * <p>Run from the repository root with {@code bench/run.sh}; sizes are system properties (see
 * {@link BenchSettings}), and {@code -Dbench.scenarios=passthrough,accuracy} picks scenarios from
 * {@link #ALL_SCENARIOS}.
 */
public final class SideBySide {

    /** Every scenario, in the order they run; {@code -Dbench.scenarios} picks some of them. */
    static final String ALL_SCENARIOS = "passthrough,producers,endtoend,accuracy,isolation,connections";

    private SideBySide() {
    }

    public static void main(String[] args) throws Exception {
        System.setProperty("java.awt.headless", "true");
        // The Pulsar client logs every producer it creates at INFO; the suite creates hundreds.
        System.setProperty("org.slf4j.simpleLogger.defaultLogLevel", "warn");
        BenchSettings settings = BenchSettings.fromSystemProperties();
        Set<String> scenarios = Set.of(System.getProperty("bench.scenarios", ALL_SCENARIOS).split(","));
        run(settings, scenarios);
        System.out.println("results in " + settings.outputDir().resolve("results.md").toAbsolutePath());
        // The Pulsar client leaves non-daemon threads behind; the shutdown hooks stop the children.
        System.exit(0);
    }

    /** Runs the chosen scenarios and writes their report; returns it. */
    static Report run(BenchSettings settings, Set<String> scenarios) throws Exception {
        Set<String> unknown = new TreeSet<>(scenarios);
        unknown.removeAll(List.of(ALL_SCENARIOS.split(",")));
        if (!unknown.isEmpty()) {
            throw new IllegalArgumentException("unknown scenarios " + unknown + "; there are " + ALL_SCENARIOS);
        }
        Files.createDirectories(settings.outputDir());
        Path workDir = Files.createTempDirectory("sluice-bench-");
        Report report = new Report();
        report.text("Run " + LocalDateTime.now().truncatedTo(ChronoUnit.SECONDS) + "; " + settings);
        // Both settings keep the broker from batching in time, which would hide what a proxy adds:
        // a synchronous send would wait for the bookie's 2 ms group commit, and a caught-up consumer
        // would be sent a new message only when its cursor next looks, every 10 ms.
        try (PulsarBroker broker = PulsarBroker.builder().config("journalFlushWhenQueueEmpty", "true")
                .config("managedLedgerNewEntriesCheckDelayInMillis", "0").start();
             SluiceContender sluice = SluiceContender.start(settings.sluiceJar(), broker.serviceUrl(),
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
            if (scenarios.contains("producers")) {
                PassthroughScenario.run(contenders, List.of(Workload.ASYNC_1KIB.splitOver(settings.producers()),
                        Workload.BATCHED_100B.splitOver(settings.producers())), settings, report);
            }
            if (scenarios.contains("endtoend")) {
                PassthroughScenario.run(contenders, List.of(Workload.SYNC_1KIB.withConsumer()), settings, report);
            }
            if (scenarios.contains("accuracy")) {
                AccuracyScenario.run(sluice, broker.serviceUrl(), broker.webUrl(), settings, report);
            }
            if (scenarios.contains("isolation")) {
                IsolationScenario.run(sluice, broker.serviceUrl(), broker.webUrl(), settings, report);
            }
            // Last: a thousand connections leave the proxies' heaps grown for whatever would follow.
            if (scenarios.contains("connections")) {
                ConnectionsScenario.run(contenders, settings, report);
            }
        } finally {
            report.write(settings.outputDir().resolve("results.md"));
            System.out.println("proxy logs and configuration in " + workDir);
        }
        return report;
    }
}
