package io.sluice.bench.sidebyside;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What a proxy costs a Kafka producer: the same load directly to the cluster, through Sluice and
 * through Kroxylicious, the contenders taking turns (direct, Sluice, Kroxylicious, direct ...) each
 * after its own warm-up, medians over the rounds. Each proxy's CPU per record, read from
 * {@code /proc} around each measured run, is the first figure: it holds steady where throughput on a
 * shared machine does not. A workload with a consumer also gets publish-to-receive latency. Then the
 * same comparison with Kafka's own {@code kafka-producer-perf-test} as the load generator. Every
 * measured run waits at the {@link LoadGate}, and the load before and after it is recorded.
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
            double e2eP99,
            double loadBefore,
            double loadAfter) {}

    private KafkaOverheadScenario() {}

    /**
     * @param workDir where profiled runs leave their recordings ({@code -Dbench.profile=true}: each
     *                proxy then runs each workload once more, profiled, as the Pulsar suite does)
     */
    static void run(
            List<Contender> contenders,
            List<KafkaWorkload> workloads,
            BenchSettings settings,
            LoadGate gate,
            Path workDir,
            Report report)
            throws Exception {
        for (KafkaWorkload workload : workloads) {
            Map<Contender, List<Figures>> runs = new LinkedHashMap<>();
            contenders.forEach(c -> runs.put(c, new ArrayList<>()));
            Map<String, double[][]> lastCdf = new LinkedHashMap<>();
            for (int round = 0; round < settings.rounds(); round++) {
                for (Contender contender : Contender.inOrderOfRound(contenders, round)) {
                    String topic = "bench-" + PassthroughScenario.slug(workload.name());
                    KafkaPublishRun.run(contender, topic, workload, settings.warmupSeconds());
                    double loadBefore = gate.beforeRun(workload.name() + " through " + contender.name());
                    ProcessCost before = contender.hasProxy() ? ProcessCost.of(contender.proxyPid()) : null;
                    KafkaPublishRun.Result result;
                    long peakRss;
                    try (PeakRss rss = contender.hasProxy() ? PeakRss.sample(contender.proxyPid()) : null) {
                        result = KafkaPublishRun.run(contender, topic, workload, settings.measureSeconds());
                        peakRss = rss == null ? -1 : rss.peakBytes();
                    }
                    ProcessCost after = contender.hasProxy() ? ProcessCost.of(contender.proxyPid()) : null;
                    double loadAfter = LoadAverage.oneMinuteNow();
                    LatencySamples l = result.latencies();
                    LatencySamples e2e = result.endToEnd();
                    Figures figures = new Figures(
                            result.messagesPerSecond(),
                            l.percentileMillis(0.50),
                            l.percentileMillis(0.99),
                            after == null ? Double.NaN : after.cpuSecondsSince(before) / result.completed() * 1e6,
                            peakRss < 0 ? Double.NaN : peakRss / 1048576.0,
                            result.completed() == 0 ? Double.NaN : (double) result.received() / result.completed(),
                            e2e.percentileMillis(0.50),
                            e2e.percentileMillis(0.99),
                            loadBefore,
                            loadAfter);
                    runs.get(contender).add(figures);
                    report.figures().load("kafka", workload.name(), contender.name(), round + 1, loadBefore, loadAfter);
                    lastCdf.put(contender.name(), l.cdf(400));
                    System.out.printf(
                            "  kafka %s round %d %s: %.0f rec/s, p99 %.2f ms, %.1f CPU s / 1M rec, %d failed,"
                                    + " load %.2f before, %.2f after%s%n",
                            workload.name(),
                            round + 1,
                            contender.name(),
                            result.messagesPerSecond(),
                            l.percentileMillis(0.99),
                            figures.cpuSecondsPerMillion(),
                            result.failed(),
                            loadBefore,
                            loadAfter,
                            workload.consumer() ? String.format(", e2e p99 %.2f ms", e2e.percentileMillis(0.99)) : "");
                }
            }
            report.heading("Kafka: " + workload.name());
            report.table(sendTable(runs));
            MarkdownTable versusKroxylicious = versusKroxyliciousTable(runs);
            if (versusKroxylicious != null) {
                report.text("Against Kroxylicious, same run (medians' ratios):");
                report.table(versusKroxylicious);
            }
            if (workload.consumer()) {
                report.text(
                        "Publish to receive (stamped in the record before `send`, read on receipt in the same JVM):");
                report.table(endToEndTable(runs));
            }
            report.text(loadRange(runs));
            recordFigures(workload, runs, report.figures());
            String png = "kafka-latency-cdf-" + PassthroughScenario.slug(workload.name()) + ".png";
            Charts.latencyCdf(
                    "Kafka send latency CDF, " + workload.name() + " (last round)",
                    "send latency",
                    lastCdf,
                    settings.outputDir().resolve(png));
            report.text("![latency CDF](bench/" + png + ")");
            if (settings.profile()) {
                for (Contender contender : contenders) {
                    if (contender.hasProxy()) {
                        String topic = "bench-" + PassthroughScenario.slug(workload.name());
                        ProfiledRun.profile(
                                contender,
                                "Kafka " + workload.name(),
                                settings,
                                workDir,
                                report,
                                () -> KafkaPublishRun.run(contender, topic, workload, settings.measureSeconds()));
                    }
                }
            }
        }
    }

    /** One kafka-producer-perf-test run and the proxy's CPU and the load around it. */
    private record PerfRun(
            ProducerPerformanceRun.Result result, double cpuSecondsPerMillion, double loadBefore, double loadAfter) {}

    /** The same comparison with kafka-producer-perf-test as the load generator. */
    static void producerPerformance(
            List<Contender> contenders,
            Path toolsDir,
            long records,
            BenchSettings settings,
            LoadGate gate,
            Path workDir,
            Report report)
            throws InterruptedException {
        MarkdownTable table = new MarkdownTable(
                "contender",
                "linger ms",
                "proxy CPU s / 1M rec",
                "records/s (median)",
                "vs direct",
                "avg ms",
                "p50 ms",
                "p99 ms",
                "p99.9 ms",
                "p99 vs direct");
        List<PerfRun> all = new ArrayList<>();
        for (int linger : new int[] {5, 0}) {
            Map<Contender, List<PerfRun>> runs = new LinkedHashMap<>();
            contenders.forEach(c -> runs.put(c, new ArrayList<>()));
            for (int round = 0; round < settings.rounds(); round++) {
                for (Contender contender : Contender.inOrderOfRound(contenders, round)) {
                    double loadBefore = gate.beforeRun(
                            "kafka-producer-perf-test, linger " + linger + " ms, through " + contender.name());
                    ProcessCost before = contender.hasProxy() ? ProcessCost.of(contender.proxyPid()) : null;
                    ProducerPerformanceRun.Result result = ProducerPerformanceRun.run(
                            toolsDir,
                            contender.serviceUrl(),
                            "bench-perf-test-linger-" + linger,
                            records,
                            1024,
                            linger,
                            workDir);
                    ProcessCost after = contender.hasProxy() ? ProcessCost.of(contender.proxyPid()) : null;
                    double loadAfter = LoadAverage.oneMinuteNow();
                    PerfRun run = new PerfRun(
                            result,
                            after == null ? Double.NaN : after.cpuSecondsSince(before) / result.records() * 1e6,
                            loadBefore,
                            loadAfter);
                    runs.get(contender).add(run);
                    all.add(run);
                    report.figures()
                            .load(
                                    "kafka-producer-perf-test",
                                    "linger " + linger,
                                    contender.name(),
                                    round + 1,
                                    loadBefore,
                                    loadAfter);
                    System.out.printf(
                            "  kafka-producer-perf-test linger %d round %d %s: %.0f rec/s, p99 %d ms,"
                                    + " %.1f CPU s / 1M rec, load %.2f before, %.2f after%n",
                            linger,
                            round + 1,
                            contender.name(),
                            result.recordsPerSecond(),
                            result.p99Millis(),
                            run.cpuSecondsPerMillion(),
                            loadBefore,
                            loadAfter);
                }
            }
            double directRate = 0;
            double directP99 = 0;
            for (Map.Entry<Contender, List<PerfRun>> entry : runs.entrySet()) {
                List<PerfRun> results = entry.getValue();
                double rate = Median.of(results, r -> r.result().recordsPerSecond());
                double p99 = Median.of(results, r -> r.result().p99Millis());
                if (directRate == 0) {
                    directRate = rate;
                    directP99 = p99;
                }
                table.row(
                        entry.getKey().name(),
                        linger,
                        MarkdownTable.num(Median.of(results, PerfRun::cpuSecondsPerMillion), 1),
                        MarkdownTable.num(rate, 0),
                        MarkdownTable.num(rate / directRate, 2),
                        MarkdownTable.num(Median.of(results, r -> r.result().avgMillis()), 1),
                        MarkdownTable.num(Median.of(results, r -> r.result().p50Millis()), 0),
                        MarkdownTable.num(p99, 0),
                        MarkdownTable.num(Median.of(results, r -> r.result().p999Millis()), 0),
                        MarkdownTable.num(p99 / directP99, 2));
            }
        }
        report.heading(
                "Kafka: kafka-producer-perf-test, " + records + " records of 1 KiB, acks=all, as fast as they go");
        report.table(table);
        report.text("Load average (1 min) before the measured runs: "
                + LoadAverage.range(
                        all.stream().mapToDouble(PerfRun::loadBefore).toArray()) + "; after them: "
                + LoadAverage.range(all.stream().mapToDouble(PerfRun::loadAfter).toArray()) + ".");
    }

    /** Each proxy's medians against Kroxylicious's; null when Kroxylicious is not a contender. */
    private static MarkdownTable versusKroxyliciousTable(Map<Contender, List<Figures>> runs) {
        Figures kroxylicious = kroxyliciousMedians(runs);
        if (kroxylicious == null) {
            return null;
        }
        MarkdownTable table = new MarkdownTable("contender", "CPU per record", "throughput", "p99", "RSS");
        for (Map.Entry<Contender, List<Figures>> entry : runs.entrySet()) {
            if (entry.getKey().hasProxy() && !entry.getKey().name().equals(KroxyliciousProcess.NAME)) {
                Figures m = medians(entry.getValue());
                table.row(
                        entry.getKey().name(),
                        MarkdownTable.num(m.cpuSecondsPerMillion() / kroxylicious.cpuSecondsPerMillion(), 2) + "x",
                        MarkdownTable.num(m.messagesPerSecond() / kroxylicious.messagesPerSecond(), 2) + "x",
                        MarkdownTable.num(m.p99() / kroxylicious.p99(), 2) + "x",
                        MarkdownTable.num(m.rssMiB() / kroxylicious.rssMiB(), 2) + "x");
            }
        }
        return table;
    }

    private static Figures kroxyliciousMedians(Map<Contender, List<Figures>> runs) {
        return runs.entrySet().stream()
                .filter(e -> e.getKey().name().equals(KroxyliciousProcess.NAME))
                .map(e -> medians(e.getValue()))
                .findFirst()
                .orElse(null);
    }

    /** Each contender's medians and their ratios to direct and to Kroxylicious, for {@code kafka-results.json}. */
    private static void recordFigures(KafkaWorkload workload, Map<Contender, List<Figures>> runs, ResultFile json) {
        Figures direct = null;
        Figures kroxylicious = kroxyliciousMedians(runs);
        String name = workload.name();
        for (Map.Entry<Contender, List<Figures>> entry : runs.entrySet()) {
            Figures m = medians(entry.getValue());
            if (direct == null) {
                direct = m;
            }
            String c = entry.getKey().name();
            json.add("kafka", name, c, "proxy CPU s per 1M records", m.cpuSecondsPerMillion(), false, false, 0.1);
            json.add("kafka", name, c, "records/s", m.messagesPerSecond(), true, false, 0);
            json.add("kafka", name, c, "p99 ms", m.p99(), false, false, 0.2);
            json.add("kafka", name, c, "proxy RSS MiB", m.rssMiB(), false, false, 8);
            if (entry.getKey().hasProxy()) {
                json.add(
                        "kafka",
                        name,
                        c,
                        "records/s vs direct",
                        m.messagesPerSecond() / direct.messagesPerSecond(),
                        true,
                        true,
                        0.02);
                json.add("kafka", name, c, "p99 vs direct", m.p99() / direct.p99(), false, true, 0.05);
            }
            if (kroxylicious != null && entry.getKey().hasProxy() && !c.equals(KroxyliciousProcess.NAME)) {
                json.add(
                        "kafka",
                        name,
                        c,
                        "CPU per record vs Kroxylicious",
                        m.cpuSecondsPerMillion() / kroxylicious.cpuSecondsPerMillion(),
                        false,
                        true,
                        0.05);
                json.add(
                        "kafka",
                        name,
                        c,
                        "records/s vs Kroxylicious",
                        m.messagesPerSecond() / kroxylicious.messagesPerSecond(),
                        true,
                        true,
                        0.02);
                json.add("kafka", name, c, "p99 vs Kroxylicious", m.p99() / kroxylicious.p99(), false, true, 0.05);
            }
        }
    }

    private static MarkdownTable sendTable(Map<Contender, List<Figures>> runs) {
        MarkdownTable table = new MarkdownTable(
                "contender",
                "proxy CPU s / 1M rec",
                "rec/s",
                "vs direct",
                "p50 ms",
                "p99 ms",
                "p99 vs direct",
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
                    MarkdownTable.num(median.cpuSecondsPerMillion(), 1),
                    MarkdownTable.num(median.messagesPerSecond(), 0),
                    MarkdownTable.num(median.messagesPerSecond() / direct.messagesPerSecond(), 2),
                    MarkdownTable.num(median.p50(), 2),
                    MarkdownTable.num(median.p99(), 2),
                    MarkdownTable.num(median.p99() / direct.p99(), 2),
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

    private static String loadRange(Map<Contender, List<Figures>> runs) {
        List<Figures> all = runs.values().stream().flatMap(List::stream).toList();
        return "Load average (1 min) before the measured runs: "
                + LoadAverage.range(
                        all.stream().mapToDouble(Figures::loadBefore).toArray()) + "; after them: "
                + LoadAverage.range(all.stream().mapToDouble(Figures::loadAfter).toArray()) + ".";
    }

    private static Figures medians(List<Figures> runs) {
        return new Figures(
                Median.of(runs, Figures::messagesPerSecond),
                Median.of(runs, Figures::p50),
                Median.of(runs, Figures::p99),
                Median.of(runs, Figures::cpuSecondsPerMillion),
                Median.of(runs, Figures::rssMiB),
                Median.of(runs, Figures::receivedShare),
                Median.of(runs, Figures::e2eP50),
                Median.of(runs, Figures::e2eP99),
                Median.of(runs, Figures::loadBefore),
                Median.of(runs, Figures::loadAfter));
    }
}
