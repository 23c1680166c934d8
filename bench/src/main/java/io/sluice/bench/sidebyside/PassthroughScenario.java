package io.sluice.bench.sidebyside;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Scenarios (a) and (b): the same producer load directly, through Sluice and through Pulsar's
 * proxy, the contenders taking turns (A B C A B C ...) each after its own warm-up; medians over
 * the rounds, the proxies' CPU and RSS read from {@code /proc} around each measured run.
 */
final class PassthroughScenario {

    /** One measured run of one contender. */
    private record Figures(double messagesPerSecond, double p50, double p99, double p999,
                           double cpuSecondsPerMillion, double rssMiB) {
    }

    private PassthroughScenario() {
    }

    static void run(List<Contender> contenders, List<Workload> workloads, BenchSettings settings, Report report)
            throws Exception {
        for (Workload workload : workloads) {
            Map<Contender, List<Figures>> runs = new LinkedHashMap<>();
            Map<String, double[][]> lastCdf = new LinkedHashMap<>();
            contenders.forEach(c -> runs.put(c, new ArrayList<>()));
            for (int round = 0; round < settings.rounds(); round++) {
                for (Contender contender : contenders) {
                    String topic = "persistent://public/default/pass-" + slug(workload.name()) + "-" + slug(contender.name());
                    PublishRun.run(contender.serviceUrl(), topic, workload, settings.warmupSeconds());
                    ProcessCost before = contender.hasProxy() ? ProcessCost.of(contender.proxyPid()) : null;
                    PublishRun.Result result = PublishRun.run(contender.serviceUrl(), topic, workload, settings.measureSeconds());
                    ProcessCost after = contender.hasProxy() ? ProcessCost.of(contender.proxyPid()) : null;
                    LatencySamples l = result.latencies();
                    runs.get(contender).add(new Figures(result.messagesPerSecond(),
                            l.percentileMillis(0.50), l.percentileMillis(0.99), l.percentileMillis(0.999),
                            after == null ? Double.NaN : after.cpuSecondsSince(before) / result.completed() * 1e6,
                            after == null ? Double.NaN : after.rssBytes() / 1048576.0));
                    lastCdf.put(contender.name(), l.cdf(400));
                    System.out.printf("  %s round %d %s: %.0f msg/s, p99 %.2f ms, %d failed%n", workload.name(), round + 1,
                            contender.name(), result.messagesPerSecond(), l.percentileMillis(0.99), result.failed());
                }
            }
            report.heading("Passthrough: " + workload.name());
            report.table(table(runs));
            String png = "latency-cdf-" + slug(workload.name()) + ".png";
            Charts.latencyCdf("Send latency CDF, " + workload.name() + " (last round)", lastCdf,
                    settings.outputDir().resolve(png));
            report.text("![latency CDF](bench/" + png + ")");
        }
    }

    private static MarkdownTable table(Map<Contender, List<Figures>> runs) {
        MarkdownTable table = new MarkdownTable("contender", "msg/s", "vs direct", "p50 ms", "p99 ms", "p99.9 ms",
                "p99 vs direct", "proxy CPU s / 1M msgs", "proxy RSS MiB (max)");
        Figures direct = null;
        for (Map.Entry<Contender, List<Figures>> entry : runs.entrySet()) {
            Figures median = median(entry.getValue());
            if (direct == null) {
                direct = median;
            }
            double maxRss = entry.getValue().stream().mapToDouble(Figures::rssMiB).max().orElse(Double.NaN);
            table.row(entry.getKey().name(), MarkdownTable.num(median.messagesPerSecond(), 0),
                    MarkdownTable.num(median.messagesPerSecond() / direct.messagesPerSecond(), 2),
                    MarkdownTable.num(median.p50(), 2), MarkdownTable.num(median.p99(), 2),
                    MarkdownTable.num(median.p999(), 2), MarkdownTable.num(median.p99() / direct.p99(), 2),
                    MarkdownTable.num(median.cpuSecondsPerMillion(), 1), MarkdownTable.num(maxRss, 0));
        }
        return table;
    }

    /** Each figure's own median over the rounds. */
    private static Figures median(List<Figures> runs) {
        return new Figures(median(runs, Figures::messagesPerSecond), median(runs, Figures::p50),
                median(runs, Figures::p99), median(runs, Figures::p999),
                median(runs, Figures::cpuSecondsPerMillion), median(runs, Figures::rssMiB));
    }

    private static double median(List<Figures> runs, java.util.function.ToDoubleFunction<Figures> figure) {
        double[] values = runs.stream().mapToDouble(figure).sorted().toArray();
        int n = values.length;
        return n % 2 == 1 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
    }

    static String slug(String name) {
        return name.toLowerCase().replaceAll("[^a-z0-9]+", "-").replaceAll("^-|-$", "");
    }
}
