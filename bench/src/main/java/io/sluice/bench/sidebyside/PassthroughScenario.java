package io.sluice.bench.sidebyside;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.ToDoubleFunction;

/**
 * Scenarios (a) and (b): the same producer load directly, through Sluice and through Pulsar's
 * proxy, the contenders taking turns (A B C A B C ...) each after its own warm-up; medians over
 * the rounds, the proxies' CPU and RSS read from {@code /proc} around each measured run. A
 * workload with a consumer also gets a table and a chart of publish-to-receive latency.
 */
final class PassthroughScenario {

    /** One measured run of one contender; the {@code e2e} figures are NaN without a consumer. */
    private record Figures(double messagesPerSecond, double p50, double p99, double p999,
                           double cpuSecondsPerMillion, double rssMiB,
                           double receivedShare, double e2eP50, double e2eP99, double e2eP999) {
    }

    private PassthroughScenario() {
    }

    static void run(List<Contender> contenders, List<Workload> workloads, BenchSettings settings, Report report)
            throws Exception {
        for (Workload workload : workloads) {
            Map<Contender, List<Figures>> runs = new LinkedHashMap<>();
            Map<String, double[][]> lastCdf = new LinkedHashMap<>();
            Map<String, double[][]> lastEndToEndCdf = new LinkedHashMap<>();
            contenders.forEach(c -> runs.put(c, new ArrayList<>()));
            for (int round = 0; round < settings.rounds(); round++) {
                for (Contender contender : contenders) {
                    String topic = "persistent://public/default/pass-" + slug(workload.name()) + "-" + slug(contender.name());
                    PublishRun.run(contender.serviceUrl(), topic, workload, settings.warmupSeconds());
                    ProcessCost before = contender.hasProxy() ? ProcessCost.of(contender.proxyPid()) : null;
                    PublishRun.Result result = PublishRun.run(contender.serviceUrl(), topic, workload, settings.measureSeconds());
                    ProcessCost after = contender.hasProxy() ? ProcessCost.of(contender.proxyPid()) : null;
                    LatencySamples l = result.latencies();
                    LatencySamples e2e = result.endToEnd();
                    runs.get(contender).add(new Figures(result.messagesPerSecond(),
                            l.percentileMillis(0.50), l.percentileMillis(0.99), l.percentileMillis(0.999),
                            after == null ? Double.NaN : after.cpuSecondsSince(before) / result.completed() * 1e6,
                            after == null ? Double.NaN : after.rssBytes() / 1048576.0,
                            (double) result.received() / result.completed(),
                            e2e.percentileMillis(0.50), e2e.percentileMillis(0.99), e2e.percentileMillis(0.999)));
                    lastCdf.put(contender.name(), l.cdf(400));
                    lastEndToEndCdf.put(contender.name(), e2e.cdf(400));
                    System.out.printf("  %s round %d %s: %.0f msg/s, p99 %.2f ms, %d failed%s%n", workload.name(),
                            round + 1, contender.name(), result.messagesPerSecond(), l.percentileMillis(0.99),
                            result.failed(), workload.consumer() ? String.format(", %d of %d received, e2e p99 %.2f ms",
                                    result.received(), result.completed(), e2e.percentileMillis(0.99)) : "");
                }
            }
            report.heading("Passthrough: " + workload.name());
            report.table(sendTable(runs));
            String png = "latency-cdf-" + slug(workload.name()) + ".png";
            Charts.latencyCdf("Send latency CDF, " + workload.name() + " (last round)", "send latency", lastCdf,
                    settings.outputDir().resolve(png));
            report.text("![latency CDF](bench/" + png + ")");
            if (workload.consumer()) {
                report.text("Publish to receive (stamped in the payload before `sendAsync`, "
                        + "read on receipt in the same JVM):");
                report.table(endToEndTable(runs));
                String e2ePng = "e2e-latency-cdf-" + slug(workload.name()) + ".png";
                Charts.latencyCdf("Publish-to-receive latency CDF, " + workload.name() + " (last round)",
                        "publish-to-receive latency", lastEndToEndCdf, settings.outputDir().resolve(e2ePng));
                report.text("![publish-to-receive latency CDF](bench/" + e2ePng + ")");
            }
        }
    }

    private static MarkdownTable sendTable(Map<Contender, List<Figures>> runs) {
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

    private static MarkdownTable endToEndTable(Map<Contender, List<Figures>> runs) {
        MarkdownTable table = new MarkdownTable("contender", "received %", "p50 ms", "p99 ms", "p99.9 ms",
                "p50 vs direct", "p99 vs direct", "p99.9 vs direct");
        Figures direct = null;
        for (Map.Entry<Contender, List<Figures>> entry : runs.entrySet()) {
            Figures median = median(entry.getValue());
            if (direct == null) {
                direct = median;
            }
            table.row(entry.getKey().name(), MarkdownTable.num(100 * median.receivedShare(), 1),
                    MarkdownTable.num(median.e2eP50(), 2), MarkdownTable.num(median.e2eP99(), 2),
                    MarkdownTable.num(median.e2eP999(), 2), MarkdownTable.num(median.e2eP50() / direct.e2eP50(), 2),
                    MarkdownTable.num(median.e2eP99() / direct.e2eP99(), 2),
                    MarkdownTable.num(median.e2eP999() / direct.e2eP999(), 2));
        }
        return table;
    }

    /** Each figure's own median over the rounds. */
    private static Figures median(List<Figures> runs) {
        return new Figures(median(runs, Figures::messagesPerSecond), median(runs, Figures::p50),
                median(runs, Figures::p99), median(runs, Figures::p999),
                median(runs, Figures::cpuSecondsPerMillion), median(runs, Figures::rssMiB),
                median(runs, Figures::receivedShare), median(runs, Figures::e2eP50),
                median(runs, Figures::e2eP99), median(runs, Figures::e2eP999));
    }

    private static double median(List<Figures> runs, ToDoubleFunction<Figures> figure) {
        double[] values = runs.stream().mapToDouble(figure).sorted().toArray();
        int n = values.length;
        return n % 2 == 1 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
    }

    static String slug(String name) {
        return name.toLowerCase().replaceAll("[^a-z0-9]+", "-").replaceAll("^-|-$", "");
    }
}
