package io.sluice.bench.sidebyside;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Scenarios (a) and (b): the same producer load directly, through Sluice and through Pulsar's
 * proxy, the contenders taking turns (A B C A B C ...) each after its own warm-up; medians over
 * the rounds, the proxies' CPU (the first figure: steady where throughput is not) and RSS read from
 * {@code /proc} around each measured run, which starts only at the {@link LoadGate}. A
 * workload with a consumer also gets a table and a chart of publish-to-receive latency. With
 * {@code -Dbench.profile=true}, each proxy then runs the workload once more, profiled ({@link ProfiledRun}).
 */
final class PassthroughScenario {

    /** One measured run of one contender; the {@code e2e} figures are NaN without a consumer. */
    private record Figures(
            double messagesPerSecond,
            double p50,
            double p99,
            double p999,
            double cpuSecondsPerMillion,
            double rssMiB,
            double receivedShare,
            double e2eP50,
            double e2eP99,
            double e2eP999,
            double load,
            double loadAfter) {}

    private PassthroughScenario() {}

    /**
     * Runs each workload on each contender in turn, for the rounds of {@code settings}.
     *
     * @param scenario the scenario's name in {@code results.json}
     * @param workDir  where profiled runs leave their recordings
     */
    static void run(
            String scenario,
            List<Contender> contenders,
            List<Workload> workloads,
            BenchSettings settings,
            Path workDir,
            Report report)
            throws Exception {
        LoadGate gate = LoadGate.of(settings);
        for (Workload workload : workloads) {
            Map<Contender, List<Figures>> runs = new LinkedHashMap<>();
            Map<String, double[][]> lastCdf = new LinkedHashMap<>();
            Map<String, double[][]> lastEndToEndCdf = new LinkedHashMap<>();
            contenders.forEach(c -> runs.put(c, new ArrayList<>()));
            for (int round = 0; round < settings.rounds(); round++) {
                for (Contender contender : Contender.inOrderOfRound(contenders, round)) {
                    String topic =
                            "persistent://public/default/pass-" + slug(workload.name()) + "-" + slug(contender.name());
                    PublishRun.run(contender.serviceUrl(), topic, workload, settings.warmupSeconds());
                    double load = gate.beforeRun(workload.name() + " through " + contender.name());
                    ProcessCost before = contender.hasProxy() ? ProcessCost.of(contender.proxyPid()) : null;
                    PublishRun.Result result =
                            PublishRun.run(contender.serviceUrl(), topic, workload, settings.measureSeconds());
                    ProcessCost after = contender.hasProxy() ? ProcessCost.of(contender.proxyPid()) : null;
                    double loadAfter = LoadAverage.oneMinuteNow();
                    report.figures().load(scenario, workload.name(), contender.name(), round + 1, load, loadAfter);
                    LatencySamples l = result.latencies();
                    LatencySamples e2e = result.endToEnd();
                    runs.get(contender)
                            .add(new Figures(
                                    result.messagesPerSecond(),
                                    l.percentileMillis(0.50),
                                    l.percentileMillis(0.99),
                                    l.percentileMillis(0.999),
                                    after == null
                                            ? Double.NaN
                                            : after.cpuSecondsSince(before) / result.completed() * 1e6,
                                    after == null ? Double.NaN : after.rssBytes() / 1048576.0,
                                    (double) result.received() / result.completed(),
                                    e2e.percentileMillis(0.50),
                                    e2e.percentileMillis(0.99),
                                    e2e.percentileMillis(0.999),
                                    load,
                                    loadAfter));
                    lastCdf.put(contender.name(), l.cdf(400));
                    lastEndToEndCdf.put(contender.name(), e2e.cdf(400));
                    System.out.printf(
                            "  %s round %d %s: %.0f msg/s, p99 %.2f ms, %d failed, load %.2f before, %.2f after%s%n",
                            workload.name(),
                            round + 1,
                            contender.name(),
                            result.messagesPerSecond(),
                            l.percentileMillis(0.99),
                            result.failed(),
                            load,
                            loadAfter,
                            workload.consumer()
                                    ? String.format(
                                            ", %d of %d received, e2e p99 %.2f ms",
                                            result.received(), result.completed(), e2e.percentileMillis(0.99))
                                    : "");
                }
            }
            report.heading("Passthrough: " + workload.name());
            report.table(sendTable(runs));
            MarkdownTable versusPulsarProxy = versusPulsarProxyTable(runs);
            if (versusPulsarProxy != null) {
                report.text("Against Apache Pulsar's proxy, same run (medians' ratios):");
                report.table(versusPulsarProxy);
            }
            report.text(loadRange(runs));
            recordFigures(scenario, workload, runs, report.figures());
            String png = "latency-cdf-" + slug(workload.name()) + ".png";
            Charts.latencyCdf(
                    "Send latency CDF, " + workload.name() + " (last round)",
                    "send latency",
                    lastCdf,
                    settings.outputDir().resolve(png));
            report.text("![latency CDF](bench/" + png + ")");
            if (workload.consumer()) {
                report.text("Publish to receive (stamped in the payload before `sendAsync`, "
                        + "read on receipt in the same JVM):");
                report.table(endToEndTable(runs));
                String e2ePng = "e2e-latency-cdf-" + slug(workload.name()) + ".png";
                Charts.latencyCdf(
                        "Publish-to-receive latency CDF, " + workload.name() + " (last round)",
                        "publish-to-receive latency",
                        lastEndToEndCdf,
                        settings.outputDir().resolve(e2ePng));
                report.text("![publish-to-receive latency CDF](bench/" + e2ePng + ")");
            }
            if (settings.profile()) {
                for (Contender contender : contenders) {
                    if (contender.hasProxy()) {
                        String topic = "persistent://public/default/profile-" + slug(workload.name()) + "-"
                                + slug(contender.name());
                        ProfiledRun.profile(
                                contender,
                                workload.name(),
                                settings,
                                workDir,
                                report,
                                () -> PublishRun.run(
                                        contender.serviceUrl(), topic, workload, settings.measureSeconds()));
                    }
                }
            }
        }
    }

    /** Each other proxy against Apache Pulsar's proxy; null when it is not a contender. */
    private static MarkdownTable versusPulsarProxyTable(Map<Contender, List<Figures>> runs) {
        Figures pulsarProxy = runs.entrySet().stream()
                .filter(e -> e.getKey().name().equals(PulsarProxyProcess.NAME))
                .map(e -> median(e.getValue()))
                .findFirst()
                .orElse(null);
        if (pulsarProxy == null) {
            return null;
        }
        MarkdownTable table = new MarkdownTable("contender", "CPU per message", "throughput", "p99", "RSS");
        for (Map.Entry<Contender, List<Figures>> entry : runs.entrySet()) {
            if (entry.getKey().hasProxy() && !entry.getKey().name().equals(PulsarProxyProcess.NAME)) {
                Figures m = median(entry.getValue());
                table.row(
                        entry.getKey().name(),
                        MarkdownTable.num(m.cpuSecondsPerMillion() / pulsarProxy.cpuSecondsPerMillion(), 2) + "x",
                        MarkdownTable.num(m.messagesPerSecond() / pulsarProxy.messagesPerSecond(), 2) + "x",
                        MarkdownTable.num(m.p99() / pulsarProxy.p99(), 2) + "x",
                        MarkdownTable.num(m.rssMiB() / pulsarProxy.rssMiB(), 2) + "x");
            }
        }
        return table;
    }

    private static String loadRange(Map<Contender, List<Figures>> runs) {
        List<Figures> all = runs.values().stream().flatMap(List::stream).toList();
        return "Load average (1 min) before the measured runs: "
                + LoadAverage.range(all.stream().mapToDouble(Figures::load).toArray()) + "; after them: "
                + LoadAverage.range(all.stream().mapToDouble(Figures::loadAfter).toArray()) + ".";
    }

    /**
     * Each contender's medians, their ratios to direct and, for every contender but Apache Pulsar's
     * proxy, to Apache Pulsar's proxy: the ratios are what {@link CompareResults} holds a run to.
     */
    private static void recordFigures(
            String scenario, Workload workload, Map<Contender, List<Figures>> runs, ResultFile json) {
        Figures direct = null;
        Figures pulsarProxy = null;
        for (Map.Entry<Contender, List<Figures>> entry : runs.entrySet()) {
            if (direct == null) {
                direct = median(entry.getValue());
            }
            if (entry.getKey().name().equals(PulsarProxyProcess.NAME)) {
                pulsarProxy = median(entry.getValue());
            }
        }
        String name = workload.name();
        for (Map.Entry<Contender, List<Figures>> entry : runs.entrySet()) {
            Figures m = median(entry.getValue());
            String c = entry.getKey().name();
            json.add(scenario, name, c, "msg/s", m.messagesPerSecond(), true, false, 0);
            json.add(scenario, name, c, "p50 ms", m.p50(), false, false, 0.05);
            json.add(scenario, name, c, "p99 ms", m.p99(), false, false, 0.2);
            json.add(scenario, name, c, "proxy CPU s per 1M msgs", m.cpuSecondsPerMillion(), false, false, 0.1);
            json.add(scenario, name, c, "proxy RSS MiB", m.rssMiB(), false, false, 8);
            if (entry.getKey().hasProxy()) {
                json.add(
                        scenario,
                        name,
                        c,
                        "msg/s vs direct",
                        m.messagesPerSecond() / direct.messagesPerSecond(),
                        true,
                        true,
                        0.02);
                json.add(scenario, name, c, "p99 vs direct", m.p99() / direct.p99(), false, true, 0.05);
            }
            if (workload.consumer()) {
                json.add(scenario, name, c, "publish-to-receive p99 ms", m.e2eP99(), false, false, 0.2);
            }
            if (pulsarProxy != null && entry.getKey().hasProxy() && !c.equals(PulsarProxyProcess.NAME)) {
                json.add(
                        scenario,
                        name,
                        c,
                        "msg/s vs Pulsar proxy",
                        m.messagesPerSecond() / pulsarProxy.messagesPerSecond(),
                        true,
                        true,
                        0.02);
                json.add(scenario, name, c, "p99 vs Pulsar proxy", m.p99() / pulsarProxy.p99(), false, true, 0.05);
                json.add(
                        scenario,
                        name,
                        c,
                        "CPU per message vs Pulsar proxy",
                        m.cpuSecondsPerMillion() / pulsarProxy.cpuSecondsPerMillion(),
                        false,
                        true,
                        0.05);
                json.add(
                        scenario, name, c, "RSS vs Pulsar proxy", m.rssMiB() / pulsarProxy.rssMiB(), false, true, 0.03);
            }
        }
    }

    private static MarkdownTable sendTable(Map<Contender, List<Figures>> runs) {
        MarkdownTable table = new MarkdownTable(
                "contender",
                "proxy CPU s / 1M msgs",
                "msg/s",
                "vs direct",
                "p50 ms",
                "p99 ms",
                "p99.9 ms",
                "p99 vs direct",
                "proxy RSS MiB (max)");
        Figures direct = null;
        for (Map.Entry<Contender, List<Figures>> entry : runs.entrySet()) {
            Figures median = median(entry.getValue());
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
                    MarkdownTable.num(median.p999(), 2),
                    MarkdownTable.num(median.p99() / direct.p99(), 2),
                    MarkdownTable.num(maxRss, 0));
        }
        return table;
    }

    private static MarkdownTable endToEndTable(Map<Contender, List<Figures>> runs) {
        MarkdownTable table = new MarkdownTable(
                "contender",
                "received %",
                "p50 ms",
                "p99 ms",
                "p99.9 ms",
                "p50 vs direct",
                "p99 vs direct",
                "p99.9 vs direct");
        Figures direct = null;
        for (Map.Entry<Contender, List<Figures>> entry : runs.entrySet()) {
            Figures median = median(entry.getValue());
            if (direct == null) {
                direct = median;
            }
            table.row(
                    entry.getKey().name(),
                    MarkdownTable.num(100 * median.receivedShare(), 1),
                    MarkdownTable.num(median.e2eP50(), 2),
                    MarkdownTable.num(median.e2eP99(), 2),
                    MarkdownTable.num(median.e2eP999(), 2),
                    MarkdownTable.num(median.e2eP50() / direct.e2eP50(), 2),
                    MarkdownTable.num(median.e2eP99() / direct.e2eP99(), 2),
                    MarkdownTable.num(median.e2eP999() / direct.e2eP999(), 2));
        }
        return table;
    }

    /** Each figure's own median over the rounds. */
    private static Figures median(List<Figures> runs) {
        return new Figures(
                Median.of(runs, Figures::messagesPerSecond),
                Median.of(runs, Figures::p50),
                Median.of(runs, Figures::p99),
                Median.of(runs, Figures::p999),
                Median.of(runs, Figures::cpuSecondsPerMillion),
                Median.of(runs, Figures::rssMiB),
                Median.of(runs, Figures::receivedShare),
                Median.of(runs, Figures::e2eP50),
                Median.of(runs, Figures::e2eP99),
                Median.of(runs, Figures::e2eP999),
                Median.of(runs, Figures::load),
                Median.of(runs, Figures::loadAfter));
    }

    static String slug(String name) {
        return name.toLowerCase().replaceAll("[^a-z0-9]+", "-").replaceAll("^-|-$", "");
    }
}
