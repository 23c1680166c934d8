package io.sluice.bench.sidebyside;

import io.sluice.testkit.kafka.KafkaCluster;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;

/**
 * The Kafka quotas suite: a real three-broker Kafka cluster (KRaft) and Sluice's jar, each a
 * process of its own, Sluice's limits set over its REST API. {@link KafkaAccuracyScenario} measures
 * how exactly produce and fetch limits hold, {@link KafkaIsolationScenario} whether a flooded
 * limited topic slows another topic of the same producer, beside Kafka's own client-id quota, and
 * {@link AdaptiveScenario} an adaptive limit on a bulk producer beside an online one.
 * Writes {@code kafka-quotas-results.md} (and {@code .json}) and PNG charts to {@code bench.output}
 * (default {@code docs/bench}).
 *
 * <p>Run from the repository root with {@code bench/run.sh kafka-quotas}; sizes are the system
 * properties of {@link BenchSettings}: {@code bench.warmupSeconds} before each measured window,
 * {@code bench.accuracySeconds} measured, {@code bench.accuracyRates} (records/s, here 100, 1,000,
 * 10,000 and 50,000 unless given), {@code bench.accuracyBytesPerSecond}, {@code bench.isolationSeconds},
 * {@code bench.rounds} (of the isolation scenario); {@code -Dbench.scenarios=isolation} runs one scenario,
 * {@code -Dbench.scenarios=librdkafka} the {@link LibrdkafkaWindowsScenario}, which is not among the default ones.
 */
public final class KafkaQuotaSideBySide {

    private static final int BROKERS = 3;
    private static final String NAME = "kafka-quotas-results";
    /** The scenarios run unless {@code -Dbench.scenarios} picks some, in the order they run. */
    private static final String ALL_SCENARIOS = "accuracy,isolation,adaptive";

    /** Every scenario {@code -Dbench.scenarios} may pick: the default ones and {@code librdkafka}. */
    private static final String KNOWN_SCENARIOS = ALL_SCENARIOS + ",librdkafka";

    private KafkaQuotaSideBySide() {}

    public static void main(String[] args) throws Exception {
        System.setProperty("java.awt.headless", "true");
        System.setProperty("org.slf4j.simpleLogger.defaultLogLevel", "warn");
        // Every batch Sluice delays comes back to the producer as a retriable error, logged as a warning.
        System.setProperty("org.slf4j.simpleLogger.log.org.apache.kafka.clients.producer.internals.Sender", "error");
        if (System.getProperty("bench.accuracyRates") == null) {
            System.setProperty("bench.accuracyRates", "100,1000,10000,50000");
        }
        BenchSettings settings = BenchSettings.fromSystemProperties();
        Set<String> scenarios =
                Set.of(System.getProperty("bench.scenarios", ALL_SCENARIOS).split(","));
        LoadGate.runOrRefuse(() -> run(settings, scenarios));
        System.out.println(
                "results in " + settings.outputDir().resolve(NAME + ".md").toAbsolutePath());
        System.exit(0);
    }

    /** Runs the chosen scenarios and writes their report; returns it. */
    static Report run(BenchSettings settings, Set<String> scenarios) throws Exception {
        Set<String> unknown = new TreeSet<>(scenarios);
        unknown.removeAll(Set.of(KNOWN_SCENARIOS.split(",")));
        if (!unknown.isEmpty()) {
            throw new IllegalArgumentException("unknown scenarios " + unknown + "; there are " + KNOWN_SCENARIOS);
        }
        String admitted = LoadGate.of(settings).admitSuite();
        Files.createDirectories(settings.outputDir());
        Path workDir = Files.createTempDirectory("sluice-kafka-quota-bench-");
        Report report = new Report();
        report.text(admitted);
        report.text("Run " + LocalDateTime.now().truncatedTo(ChronoUnit.SECONDS) + "; warm-up "
                + settings.warmupSeconds() + " s, measured " + settings.accuracySeconds() + " s per limit, isolation "
                + settings.isolationSeconds() + " s; load average at start " + LoadAverage.now() + " on "
                + Runtime.getRuntime().availableProcessors() + " CPUs");
        try (KafkaCluster cluster = BenchBrokers.kafka(BROKERS).start();
                KafkaSluiceContender sluice = KafkaSluiceContender.start(
                        settings.sluiceJar(),
                        cluster.bootstrapServers(),
                        BROKERS,
                        settings.proxyJvmOptions(),
                        workDir);
                Admin admin =
                        Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, cluster.bootstrapServers()))) {
            if (scenarios.contains("accuracy")) {
                KafkaAccuracyScenario.run(sluice, cluster.bootstrapServers(), admin, settings, report);
            }
            if (scenarios.contains("isolation")) {
                KafkaIsolationScenario.run(sluice, cluster.bootstrapServers(), admin, settings, report);
            }
            if (scenarios.contains("adaptive")) {
                AdaptiveScenario.run(
                        new KafkaAdaptiveWorkload(sluice, admin),
                        settings.adaptiveSeconds(),
                        settings.outputDir(),
                        report);
            }
            if (scenarios.contains("librdkafka")) {
                LibrdkafkaWindowsScenario.run(sluice, admin, workDir, report);
            }
            report.text("Load average at the end: " + LoadAverage.now());
        } finally {
            report.write(settings.outputDir(), NAME);
            System.out.println("Sluice's log in " + workDir);
        }
        return report;
    }

    /**
     * Creates a topic replicated to every broker; a topic of one partition is led by broker 1, so
     * that such topics share their producer's connection.
     */
    static void createTopic(Admin admin, String name, int partitions) throws Exception {
        NewTopic topic = partitions == 1
                ? new NewTopic(name, Map.of(0, List.of(1, 2, 3)))
                : new NewTopic(name, partitions, (short) BROKERS);
        admin.createTopics(List.of(topic)).all().get(60, TimeUnit.SECONDS);
    }
}
