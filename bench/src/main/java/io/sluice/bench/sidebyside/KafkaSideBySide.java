package io.sluice.bench.sidebyside;

import io.sluice.testkit.kafka.KafkaCluster;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The Kafka side-by-side suite: a real three-broker Kafka cluster (KRaft), Sluice's jar and
 * Kroxylicious (a Kafka proxy without filters, {@link KroxyliciousProcess}), each node and proxy a
 * process of its own, driven with identical loads from this JVM directly, through Sluice and through
 * Kroxylicious, and with Kafka's own {@code kafka-producer-perf-test}. Writes {@code kafka-results.md}
 * and PNG charts to {@code bench.output} (default {@code docs/bench}).
 *
 * <p>Run from the repository root with {@code bench/run.sh kafka}; sizes are the system properties
 * of {@link BenchSettings} ({@code -Dbench.workloads} picks workloads by name), plus
 * {@code -Dbench.perfRecords} (records per kafka-producer-perf-test run; 0 leaves those runs out)
 * and {@code -Dbench.kroxylicious=false} (leave Kroxylicious out). {@code -Dbench.sluiceB=jar} runs a
 * second Sluice jar beside the first as contender "Sluice B" (an A/B of two builds in one run).
 */
public final class KafkaSideBySide {

    /** Brokers of the suite's cluster, and replicas of each of its topics. */
    static final int BROKERS = 3;

    private KafkaSideBySide() {}

    public static void main(String[] args) throws Exception {
        System.setProperty("java.awt.headless", "true");
        System.setProperty("org.slf4j.simpleLogger.defaultLogLevel", "warn");
        BenchSettings settings = BenchSettings.fromSystemProperties();
        long perfRecords = Long.getLong("bench.perfRecords", 300_000);
        Path toolsDir = Path.of(System.getProperty("bench.kafkaTools", "bench/target/kafka-tools"))
                .toAbsolutePath();
        boolean kroxylicious = Boolean.parseBoolean(System.getProperty("bench.kroxylicious", "true"));
        LoadGate.runOrRefuse(() -> run(settings, perfRecords, toolsDir, kroxylicious));
        System.out.println(
                "results in " + settings.outputDir().resolve("kafka-results.md").toAbsolutePath());
        System.exit(0);
    }

    /**
     * Runs the suite and writes its report; returns it.
     *
     * @param kroxylicious whether Kroxylicious is a contender
     * @throws LoadGate.BusyMachine if the machine is too busy to measure on
     */
    static Report run(BenchSettings settings, long perfRecords, Path toolsDir, boolean kroxylicious) throws Exception {
        LoadGate gate = LoadGate.of(settings);
        String admitted = gate.admitSuite();
        Files.createDirectories(settings.outputDir());
        Path workDir = Files.createTempDirectory("sluice-kafka-bench-");
        Report report = new Report();
        report.text("Run " + LocalDateTime.now().truncatedTo(ChronoUnit.SECONDS) + "; " + settings + " on "
                + Runtime.getRuntime().availableProcessors() + " CPUs");
        report.text(admitted);
        report.figures().describe("load gate", admitted);
        // Profiling wants the agent, a continuous recording and exact inlined frames, in both proxies alike.
        List<String> proxyJvm = new ArrayList<>(settings.proxyJvmOptions());
        if (settings.profile()) {
            proxyJvm.addAll(ProcessProfiler.jvmOptions(workDir));
        }
        // Full JIT on the brokers: their throughput is the ceiling both contenders share.
        try (KafkaCluster cluster = BenchBrokers.kafka(BROKERS).start();
                KafkaSluiceContender sluice = KafkaSluiceContender.start(
                        settings.sluiceJar(), cluster.bootstrapServers(), BROKERS, proxyJvm, workDir);
                KafkaSluiceContender sluiceB = settings.sluiceJarB() == null
                        ? null
                        : KafkaSluiceContender.start(
                                settings.sluiceJarB(),
                                cluster.bootstrapServers(),
                                BROKERS,
                                SideBySide.concat(proxyJvm, settings.sluiceBJvmOptions()),
                                Files.createDirectories(workDir.resolve("sluice-b")));
                KroxyliciousProcess kroxy = kroxylicious
                        ? KroxyliciousProcess.start(cluster.bootstrapServers(), cluster.nodeIds(), proxyJvm, workDir)
                        : null) {
            List<Contender> contenders = new ArrayList<>();
            contenders.add(Contender.direct(cluster.bootstrapServers()));
            contenders.add(sluice.contender());
            if (sluiceB != null) {
                contenders.add(sluiceB.contender().renamed("Sluice B"));
            }
            if (kroxy != null) {
                contenders.add(kroxy.contender());
            }
            List<KafkaWorkload> workloads = Workload.selected(
                    List.of(
                            KafkaWorkload.BATCHED_100B,
                            KafkaWorkload.BATCHED_100B.withConsumer(),
                            KafkaWorkload.SYNC_1KIB,
                            KafkaWorkload.SYNC_1KIB.withConsumer()),
                    KafkaWorkload::name);
            createTopics(cluster.bootstrapServers(), workloads);
            KafkaOverheadScenario.run(contenders, workloads, settings, gate, workDir, report);
            if (perfRecords > 0) {
                KafkaOverheadScenario.producerPerformance(
                        contenders, toolsDir, perfRecords, settings, gate, workDir, report);
            }
            report.text("Load average at the end: " + LoadAverage.now());
        } finally {
            report.write(settings.outputDir(), "kafka-results");
            System.out.println("Sluice's log and the tools' output in " + workDir);
        }
        return report;
    }

    /** One topic per workload and one per kafka-producer-perf-test setting: three partitions, three replicas. */
    static void createTopics(String bootstrap, List<KafkaWorkload> workloads) throws Exception {
        List<NewTopic> topics = new ArrayList<>();
        for (KafkaWorkload workload : workloads) {
            topics.add(new NewTopic("bench-" + PassthroughScenario.slug(workload.name()), 3, (short) BROKERS));
        }
        topics.add(new NewTopic("bench-perf-test-linger-5", 3, (short) BROKERS));
        topics.add(new NewTopic("bench-perf-test-linger-0", 3, (short) BROKERS));
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap))) {
            admin.createTopics(topics).all().get(60, TimeUnit.SECONDS);
        }
    }
}
