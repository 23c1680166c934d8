package io.sluice.bench.sidebyside;

import io.sluice.testkit.pulsar.PulsarBroker;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
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
    static final String ALL_SCENARIOS =
            "passthrough,producers,endtoend,pulsarperf,held,accuracy,isolation,adaptive,connections,manyconnections";

    private SideBySide() {}

    public static void main(String[] args) throws Exception {
        System.setProperty("java.awt.headless", "true");
        // The Pulsar client logs every producer it creates at INFO; the suite creates hundreds.
        System.setProperty("org.slf4j.simpleLogger.defaultLogLevel", "warn");
        BenchSettings settings = BenchSettings.fromSystemProperties();
        Set<String> scenarios =
                Set.of(System.getProperty("bench.scenarios", ALL_SCENARIOS).split(","));
        LoadGate.runOrRefuse(() -> run(settings, scenarios));
        System.out.println("results in "
                + settings.outputDir().resolve("results.md").toAbsolutePath() + " and results.json beside it");
        // The Pulsar client leaves non-daemon threads behind; the shutdown hooks stop the children.
        System.exit(0);
    }

    /**
     * Runs the chosen scenarios and writes their report; returns it.
     *
     * @throws LoadGate.BusyMachine if the machine is too busy to measure on
     */
    static Report run(BenchSettings settings, Set<String> scenarios) throws Exception {
        Set<String> unknown = new TreeSet<>(scenarios);
        unknown.removeAll(List.of(ALL_SCENARIOS.split(",")));
        if (!unknown.isEmpty()) {
            throw new IllegalArgumentException("unknown scenarios " + unknown + "; there are " + ALL_SCENARIOS);
        }
        String admitted = LoadGate.of(settings).admitSuite();
        Files.createDirectories(settings.outputDir());
        Path workDir = Files.createTempDirectory("sluice-bench-");
        Report report = new Report();
        report.text("Run " + LocalDateTime.now().truncatedTo(ChronoUnit.SECONDS) + "; " + settings + " on "
                + Runtime.getRuntime().availableProcessors() + " cores.");
        report.text(admitted);
        describe(report.figures(), settings, scenarios);
        report.figures().describe("load gate", admitted);
        // Profiling wants exact inlined frames, in both proxies alike.
        List<String> proxyJvm = new ArrayList<>(settings.proxyJvmOptions());
        if (settings.profile()) {
            proxyJvm.addAll(ProcessProfiler.jvmOptions(workDir));
        }
        try (PulsarBroker broker = BenchBrokers.pulsar().start();
                SluiceContender sluice =
                        SluiceContender.start(settings.sluiceJar(), broker.serviceUrl(), proxyJvm, workDir);
                SluiceContender sluiceB = settings.sluiceJarB() == null
                        ? null
                        : SluiceContender.start(
                                settings.sluiceJarB(),
                                broker.serviceUrl(),
                                concat(proxyJvm, settings.sluiceBJvmOptions()),
                                Files.createDirectories(workDir.resolve("sluice-b")));
                PulsarProxyProcess pulsarProxy = settings.pulsarProxy()
                        ? PulsarProxyProcess.start(settings.pulsarProxyJar(), broker, proxyJvm, workDir)
                        : null) {
            Contender direct = Contender.direct(broker.serviceUrl());
            List<Contender> contenders = new ArrayList<>();
            contenders.add(direct);
            contenders.add(sluice.contender());
            Map<Contender, SluiceContender> sluices = new LinkedHashMap<>();
            sluices.put(sluice.contender(), sluice);
            if (sluiceB != null) {
                Contender b = sluiceB.contender();
                Contender named = new Contender("Sluice B", b.serviceUrl(), b.proxyPid());
                contenders.add(named);
                sluices.put(named, sluiceB);
            }
            if (pulsarProxy != null) {
                contenders.add(pulsarProxy.contender());
            }
            if (scenarios.contains("passthrough")) {
                PassthroughScenario.run(
                        "passthrough",
                        contenders,
                        Workload.selected(List.of(Workload.SYNC_1KIB, Workload.ASYNC_1KIB, Workload.BATCHED_100B)),
                        settings,
                        workDir,
                        report);
            }
            if (scenarios.contains("producers")) {
                PassthroughScenario.run(
                        "producers",
                        contenders,
                        Workload.selected(List.of(
                                Workload.ASYNC_1KIB.splitOver(settings.producers()),
                                Workload.BATCHED_100B.splitOver(settings.producers()))),
                        settings,
                        workDir,
                        report);
            }
            if (scenarios.contains("endtoend")) {
                PassthroughScenario.run(
                        "endtoend", contenders, List.of(Workload.SYNC_1KIB.withConsumer()), settings, workDir, report);
            }
            if (scenarios.contains("pulsarperf")) {
                PulsarPerfScenario.run(contenders, settings, workDir, report);
            }
            if (scenarios.contains("held")) {
                HeldScenario.run(direct, sluices, broker.webUrl(), settings, workDir, report);
            }
            if (scenarios.contains("accuracy")) {
                AccuracyScenario.run(sluice, broker.serviceUrl(), broker.webUrl(), settings, workDir, report);
            }
            if (scenarios.contains("isolation")) {
                IsolationScenario.run(sluice, broker.serviceUrl(), broker.webUrl(), settings, report);
            }
            if (scenarios.contains("adaptive")) {
                AdaptiveScenario.run(
                        new PulsarAdaptiveWorkload(sluice), settings.adaptiveSeconds(), settings.outputDir(), report);
            }
            // Last: a thousand connections leave the proxies' heaps grown for whatever would follow.
            if (scenarios.contains("connections")) {
                ConnectionsScenario.run("connections", contenders, settings.connections(), settings, report);
            }
            // Sluice only: Apache Pulsar's proxy would need about 9 open files per client.
            if (scenarios.contains("manyconnections")) {
                ConnectionsScenario.run(
                        "manyconnections",
                        List.of(direct, sluice.contender()),
                        settings.manyConnections(),
                        settings,
                        report);
            }
        } finally {
            report.write(settings.outputDir());
            System.out.println("proxy logs and configuration in " + workDir);
        }
        return report;
    }

    static List<String> concat(List<String> first, List<String> second) {
        List<String> all = new ArrayList<>(first);
        all.addAll(second);
        return all;
    }

    /** What {@code results.json} says about the run, so that two runs compared can be told apart. */
    private static void describe(ResultFile json, BenchSettings settings, Set<String> scenarios) {
        json.describe(
                "started", LocalDateTime.now().truncatedTo(ChronoUnit.SECONDS).toString());
        json.describe("commit", System.getProperty("bench.commit", "unknown"));
        json.describe("settings", settings.toString());
        json.describe("scenarios", String.join(",", new TreeSet<>(scenarios)));
        json.describe("cores", Integer.toString(Runtime.getRuntime().availableProcessors()));
        json.describe("java", System.getProperty("java.vm.name") + " " + System.getProperty("java.runtime.version"));
        json.describe("load average at start", LoadAverage.now().toString());
        json.describe("sluice jar", settings.sluiceJar() + " (" + lastModified(settings.sluiceJar()) + ")");
    }

    private static String lastModified(Path file) {
        try {
            return Files.getLastModifiedTime(file).toString();
        } catch (java.io.IOException e) {
            return "missing";
        }
    }
}
