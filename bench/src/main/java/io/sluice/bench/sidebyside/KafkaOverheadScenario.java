package io.sluice.bench.sidebyside;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.ToDoubleFunction;

/**
 * What Sluice costs a Kafka producer: the same load directly to the cluster and through Sluice,
 * the two taking turns (direct, Sluice, direct, Sluice ...) each after its own warm-up, medians
 * over the rounds; Sluice's CPU and RSS read from {@code /proc} around each measured run. A
 * workload with a consumer also gets publish-to-receive latency. Then the same comparison with
 * Kafka's own {@code kafka-producer-perf-test} as the load generator.
 */
final class KafkaOverheadScenario {

    /** One measured run of one contender. */
    private record Figures(
            double messagesPerSecond,
            double p50,
            double p99,
            double cpuSecondsPerMillion,
            double rssMiB,
            double receivedShare,
            double e2eP50,
            double e2eP99) {}

    private KafkaOverheadScenario() {}

    static void run(List<Contender> contenders, List<KafkaWorkload> workloads, BenchSettings settings, Report report)
            throws Exception {
        for (KafkaWorkload workload : workloads) {
            Map<Contender, List<Figures>> runs = new LinkedHashMap<>();
            contenders.forEach(c -> runs.put(c, new ArrayList<>()));
            Map<String, double[][]> lastCdf = new LinkedHashMap<>();
            for (int round = 0; round < settings.rounds(); round++) {
                for (Contender contender : contenders) {
                    String topic = "bench-" + PassthroughScenario.slug(workload.name());
                    KafkaPublishRun.run(contender.serviceUrl(), topic, workload, settings.warmupSeconds());
                    ProcessCost before = contender.hasProxy() ? ProcessCost.of(contender.proxyPid()) : null;
                    KafkaPublishRun.Result result;
                    long peakRss;
                    try (PeakRss rss = contender.hasProxy() ? PeakRss.sample(contender.proxyPid()) : null) {
                        result =
                                KafkaPublishRun.run(contender.serviceUrl(), topic, workload, settings.measureSeconds());
                        peakRss = rss == null ? -1 : rss.peakBytes();
                    }
                    ProcessCost after = contender.hasProxy() ? ProcessCost.of(contender.proxyPid()) : null;
                    LatencySamples l = result.latencies();
                    LatencySamples e2e = result.endToEnd();
                    runs.get(contender)
                            .add(new Figures(
                                    result.messagesPerSecond(),
                                    l.percentileMillis(0.50),
                                    l.percentileMillis(0.99),
                                    after == null
                                            ? Double.NaN
                                            : after.cpuSecondsSince(before) / result.completed() * 1e6,
                                    peakRss < 0 ? Double.NaN : peakRss / 1048576.0,
                                    result.completed() == 0
                                            ? Double.NaN
                                            : (double) result.received() / result.completed(),
                                    e2e.percentileMillis(0.50),
                                    e2e.percentileMillis(0.99)));
                    lastCdf.put(contender.name(), l.cdf(400));
                    System.out.printf(
                            "  kafka %s round %d %s: %.0f rec/s, p99 %.2f ms, %d failed, load %s%s%n",
                            workload.name(),
                            round + 1,
                            contender.name(),
                            result.messagesPerSecond(),
                            l.percentileMillis(0.99),
                            result.failed(),
                            KafkaSideBySide.loadAverage(),
                            workload.consumer() ? String.format(", e2e p99 %.2f ms", e2e.percentileMillis(0.99)) : "");
                }
            }
            report.heading("Kafka: " + workload.name());
            report.table(sendTable(runs));
            if (workload.consumer()) {
                report.text(
                        "Publish to receive (stamped in the record before `send`, read on receipt in the same JVM):");
                report.table(endToEndTable(runs));
            }
            String png = "kafka-latency-cdf-" + PassthroughScenario.slug(workload.name()) + ".png";
            Charts.latencyCdf(
                    "Kafka send latency CDF, " + workload.name() + " (last round)",
                    "send latency",
                    lastCdf,
                    settings.outputDir().resolve(png));
            report.text("![latency CDF](bench/" + png + ")");
        }
    }

    /** The same comparison with kafka-producer-perf-test as the load generator. */
    static void producerPerformance(
            List<Contender> contenders,
            Path toolsDir,
            long records,
            BenchSettings settings,
            Path workDir,
            Report report) {
        MarkdownTable table = new MarkdownTable(
                "contender",
                "linger ms",
                "records/s (median)",
                "vs direct",
                "avg ms",
                "p50 ms",
                "p99 ms",
                "p99.9 ms",
                "p99 vs direct");
        for (int linger : new int[] {5, 0}) {
            Map<Contender, List<ProducerPerformanceRun.Result>> runs = new LinkedHashMap<>();
            contenders.forEach(c -> runs.put(c, new ArrayList<>()));
            for (int round = 0; round < settings.rounds(); round++) {
                for (Contender contender : contenders) {
                    ProducerPerformanceRun.Result result = ProducerPerformanceRun.run(
                            toolsDir,
                            contender.serviceUrl(),
                            "bench-perf-test-linger-" + linger,
                            records,
                            1024,
                            linger,
                            workDir);
                    runs.get(contender).add(result);
                    System.out.printf(
                            "  kafka-producer-perf-test linger %d round %d %s: %.0f rec/s, p99 %d ms, load %s%n",
                            linger,
                            round + 1,
                            contender.name(),
                            result.recordsPerSecond(),
                            result.p99Millis(),
                            KafkaSideBySide.loadAverage());
                }
            }
            double directRate = 0;
            double directP99 = 0;
            for (Map.Entry<Contender, List<ProducerPerformanceRun.Result>> entry : runs.entrySet()) {
                List<ProducerPerformanceRun.Result> results = entry.getValue();
                double rate = median(results, ProducerPerformanceRun.Result::recordsPerSecond);
                double p99 = median(results, r -> r.p99Millis());
                if (directRate == 0) {
                    directRate = rate;
                    directP99 = p99;
                }
                table.row(
                        entry.getKey().name(),
                        linger,
                        MarkdownTable.num(rate, 0),
                        MarkdownTable.num(rate / directRate, 2),
                        MarkdownTable.num(median(results, ProducerPerformanceRun.Result::avgMillis), 1),
                        MarkdownTable.num(median(results, r -> r.p50Millis()), 0),
                        MarkdownTable.num(p99, 0),
                        MarkdownTable.num(median(results, r -> r.p999Millis()), 0),
                        MarkdownTable.num(p99 / directP99, 2));
            }
        }
        report.heading(
                "Kafka: kafka-producer-perf-test, " + records + " records of 1 KiB, acks=all, as fast as they go");
        report.table(table);
    }

    private static MarkdownTable sendTable(Map<Contender, List<Figures>> runs) {
        MarkdownTable table = new MarkdownTable(
                "contender",
                "rec/s",
                "vs direct",
                "p50 ms",
                "p99 ms",
                "p99 vs direct",
                "proxy CPU s / 1M rec",
                "proxy RSS MiB (max)");
        Figures direct = null;
        for (Map.Entry<Contender, List<Figures>> entry : runs.entrySet()) {
            Figures median = medians(entry.getValue());
            if (direct == null) {
                direct = median;
            }
            double maxRss =
                    entry.getValue().stream().mapToDouble(Figures::rssMiB).max().orElse(Double.NaN);
            table.row(
                    entry.getKey().name(),
                    MarkdownTable.num(median.messagesPerSecond(), 0),
                    MarkdownTable.num(median.messagesPerSecond() / direct.messagesPerSecond(), 2),
                    MarkdownTable.num(median.p50(), 2),
                    MarkdownTable.num(median.p99(), 2),
                    MarkdownTable.num(median.p99() / direct.p99(), 2),
                    MarkdownTable.num(median.cpuSecondsPerMillion(), 1),
                    MarkdownTable.num(maxRss, 0));
        }
        return table;
    }

    private static MarkdownTable endToEndTable(Map<Contender, List<Figures>> runs) {
        MarkdownTable table =
                new MarkdownTable("contender", "received %", "p50 ms", "p99 ms", "p50 vs direct", "p99 vs direct");
        Figures direct = null;
        for (Map.Entry<Contender, List<Figures>> entry : runs.entrySet()) {
            Figures median = medians(entry.getValue());
            if (direct == null) {
                direct = median;
            }
            table.row(
                    entry.getKey().name(),
                    MarkdownTable.num(100 * median.receivedShare(), 1),
                    MarkdownTable.num(median.e2eP50(), 2),
                    MarkdownTable.num(median.e2eP99(), 2),
                    MarkdownTable.num(median.e2eP50() / direct.e2eP50(), 2),
                    MarkdownTable.num(median.e2eP99() / direct.e2eP99(), 2));
        }
        return table;
    }

    private static Figures medians(List<Figures> runs) {
        return new Figures(
                median(runs, Figures::messagesPerSecond),
                median(runs, Figures::p50),
                median(runs, Figures::p99),
                median(runs, Figures::cpuSecondsPerMillion),
                median(runs, Figures::rssMiB),
                median(runs, Figures::receivedShare),
                median(runs, Figures::e2eP50),
                median(runs, Figures::e2eP99));
    }

    /** The median of one figure over runs. */
    static <T> double median(List<T> runs, ToDoubleFunction<T> figure) {
        double[] values = runs.stream().mapToDouble(figure).sorted().toArray();
        int n = values.length;
        return n % 2 == 1 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
    }
}
