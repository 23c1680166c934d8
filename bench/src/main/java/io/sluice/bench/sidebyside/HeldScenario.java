package io.sluice.bench.sidebyside;

import org.apache.pulsar.client.admin.PulsarAdmin;
import org.apache.pulsar.common.policies.data.PublishRate;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The held path at a high rate: producers flood (100 B, no batching) topics whose {@code delay}
 * limit is below what they offer, so that Sluice holds every send and its timer releases them.
 * One producer limited to {@code bench.heldRate}, then two producers on one connection limited to
 * half of it each; beside them, for the same flood, what the machine can carry at all (directly
 * and through Sluice without a limit) and the broker's own publish-rate policy. The cases take
 * turns, rounds as in the passthrough scenario; medians.
 */
final class HeldScenario {

    /** One producer's flood; the two-producer case splits the same in-flight bound. */
    private static final Workload FLOOD = new Workload(100, false, 2000, 1, false);
    /**
     * Sluice's limits here hold a tenth of a second of rate, not the default second: a bucket's
     * burst passes only as fast as the machine carries messages beyond the limit, and on a machine
     * that carries 55,000 msg/s a second's worth at 50,000 takes ten seconds to drain, which would
     * read as a rate above the limit. This measures how exactly held sends are released.
     */
    private static final double BURST_SECONDS = 0.1;
    /**
     * The steady rate is read after the first seconds; each flood lasts this much longer than
     * {@code bench.accuracySeconds} (at most half of that, whole seconds, for the smoke test's tiny floods).
     */
    private static final double SETTLE_SECONDS = 4;

    /** How a case's topics are limited. */
    private enum Enforcer {
        NONE,
        SLUICE,
        BROKER
    }

    /** One case; {@code sluice} is the process whose REST API sets a Sluice limit, null for the others. */
    private record Case(
            String name, Contender contender, SluiceContender sluice, int producers, Enforcer enforcer, int limitEach) {
        Workload workload() {
            return producers == 1 ? FLOOD : FLOOD.splitOver(producers);
        }
    }

    /** One measured run of a case. */
    private record Figures(
            double steady,
            double minProducerSteady,
            double maxProducerSteady,
            double firstSecond,
            double cpuSecondsPerMillion,
            long failed,
            double load,
            double loadAfter) {}

    private HeldScenario() {}

    /**
     * Runs the cases for each Sluice of {@code sluices} (its contender, as named in tables, and its
     * process: two of them for an A/B run of two builds).
     */
    static void run(
            Contender direct,
            Map<Contender, SluiceContender> sluices,
            String brokerWebUrl,
            BenchSettings settings,
            Path workDir,
            Report report)
            throws Exception {
        int rate = settings.heldRate();
        List<Case> cases = new ArrayList<>();
        cases.add(new Case("direct, no limit", direct, null, 1, Enforcer.NONE, 0));
        List<Case> profiled = new ArrayList<>();
        sluices.forEach((contender, process) -> {
            String name = contender.name();
            Case unlimited = new Case(name + ", no limit", contender, process, 1, Enforcer.NONE, 0);
            Case one = new Case(
                    name + " delay, 1 producer limited to " + rate, contender, process, 1, Enforcer.SLUICE, rate);
            cases.addAll(List.of(
                    unlimited,
                    one,
                    new Case(
                            name + " delay, 2 producers limited to " + rate / 2 + " each",
                            contender,
                            process,
                            2,
                            Enforcer.SLUICE,
                            rate / 2)));
            // The same flood without a limit, then held: the difference is the held path's.
            profiled.addAll(List.of(unlimited, one));
        });
        cases.add(new Case("broker policy, 1 producer limited to " + rate, direct, null, 1, Enforcer.BROKER, rate));
        double settle = Math.min(SETTLE_SECONDS, Math.floor(settings.accuracySeconds() / 2));
        double seconds = settings.accuracySeconds() + settle;
        Map<Case, List<Figures>> runs = new LinkedHashMap<>();
        cases.forEach(c -> runs.put(c, new ArrayList<>()));
        try (PulsarAdmin admin =
                PulsarAdmin.builder().serviceHttpUrl(brokerWebUrl).build()) {
            for (Case each : cases) {
                flood(each, admin, settings.warmupSeconds());
            }
            LoadGate gate = LoadGate.of(settings);
            for (int round = 0; round < settings.rounds(); round++) {
                for (Case each : cases) {
                    double load = gate.beforeRun("the held path, " + each.name());
                    ProcessCost before = each.contender().hasProxy()
                            ? ProcessCost.of(each.contender().proxyPid())
                            : null;
                    PublishRun.Result result = flood(each, admin, seconds);
                    ProcessCost after = each.contender().hasProxy()
                            ? ProcessCost.of(each.contender().proxyPid())
                            : null;
                    double loadAfter = LoadAverage.oneMinuteNow();
                    report.figures().load("held", each.name(), each.contender().name(), round + 1, load, loadAfter);
                    double[] producerSteady = result.producerTimelines().stream()
                            .mapToDouble(t -> t.rate(settle, seconds))
                            .toArray();
                    Figures figures = new Figures(
                            result.timeline().rate(settle, seconds),
                            Arrays.stream(producerSteady).min().orElse(Double.NaN),
                            Arrays.stream(producerSteady).max().orElse(Double.NaN),
                            result.timeline().rate(0, 1),
                            after == null ? Double.NaN : after.cpuSecondsSince(before) / result.completed() * 1e6,
                            result.failed(),
                            load,
                            loadAfter);
                    runs.get(each).add(figures);
                    System.out.printf(
                            "  held round %d %s: steady %.0f msg/s (producers %.0f to %.0f), load %.2f before,"
                                    + " %.2f after%n",
                            round + 1,
                            each.name(),
                            figures.steady(),
                            figures.minProducerSteady(),
                            figures.maxProducerSteady(),
                            load,
                            loadAfter);
                }
            }
            if (settings.profile()) {
                for (Case each : profiled) {
                    ProfiledRun.profile(
                            each.contender(),
                            "100 B flood, " + each.name(),
                            settings,
                            workDir,
                            report,
                            () -> flood(each, admin, seconds));
                }
            }
        }
        report.heading(
                "Held path: floods of 100 B unbatched sends (" + FLOOD.inFlight() + " in flight per connection), "
                        + MarkdownTable.num(seconds, 0) + " s, steady from " + MarkdownTable.num(settle, 0) + " s");
        report.text(
                "Sluice's limits hold " + BURST_SECONDS + " s of rate (`burstSeconds`); the broker's policy its own "
                        + "default. The last column is the median of the load averages at the starts and ends of the runs.");
        MarkdownTable table = new MarkdownTable(
                "case",
                "steady msg/s",
                "steady error %",
                "slowest producer msg/s",
                "fastest producer msg/s",
                "producer error % (worst)",
                "first 1 s msg/s",
                "proxy CPU s / 1M msgs",
                "failed",
                "load avg before / after");
        for (Map.Entry<Case, List<Figures>> entry : runs.entrySet()) {
            Case each = entry.getKey();
            List<Figures> figures = entry.getValue();
            double steady = Median.of(figures, Figures::steady);
            double target = (double) each.limitEach() * each.producers();
            double slowest = Median.of(figures, Figures::minProducerSteady);
            double fastest = Median.of(figures, Figures::maxProducerSteady);
            double worst = each.limitEach() == 0
                    ? Double.NaN
                    : 100
                            * Math.max(Math.abs(slowest - each.limitEach()), Math.abs(fastest - each.limitEach()))
                            / each.limitEach();
            double error = target == 0 ? Double.NaN : 100 * (steady - target) / target;
            table.row(
                    each.name(),
                    MarkdownTable.num(steady, 0),
                    MarkdownTable.num(error, 2),
                    MarkdownTable.num(slowest, 0),
                    MarkdownTable.num(fastest, 0),
                    MarkdownTable.num(worst, 2),
                    MarkdownTable.num(Median.of(figures, Figures::firstSecond), 0),
                    MarkdownTable.num(Median.of(figures, Figures::cpuSecondsPerMillion), 2),
                    (long) Median.of(figures, Figures::failed),
                    MarkdownTable.num(Median.of(figures, Figures::load), 2) + " / "
                            + MarkdownTable.num(Median.of(figures, Figures::loadAfter), 2));
            ResultFile json = report.figures();
            json.add("held", each.name(), each.contender().name(), "steady msg/s", steady, true, false, 0);
            json.add("held", each.name(), each.contender().name(), "steady error %", error, true, false, 0.5);
            json.add("held", each.name(), each.contender().name(), "worst producer error %", worst, false, false, 0.5);
            json.add(
                    "held",
                    each.name(),
                    each.contender().name(),
                    "proxy CPU s per 1M msgs",
                    Median.of(figures, Figures::cpuSecondsPerMillion),
                    false,
                    false,
                    0.2);
        }
        report.table(table);
    }

    private static PublishRun.Result flood(Case each, PulsarAdmin admin, double seconds) throws Exception {
        String topic =
                "persistent://public/default/held-" + PassthroughScenario.slug(each.name()) + "-" + System.nanoTime();
        List<String> topics = new ArrayList<>();
        if (each.producers() == 1) {
            topics.add(topic);
        } else {
            for (int i = 0; i < each.producers(); i++) {
                topics.add(topic + "-" + i);
            }
        }
        for (String limited : topics) {
            switch (each.enforcer()) {
                case SLUICE ->
                    each.sluice()
                            .putTopicLimit(
                                    limited,
                                    "{\"publish\":{\"messagesPerSecond\":" + each.limitEach() + ",\"burstSeconds\":"
                                            + BURST_SECONDS + "}}");
                case BROKER -> {
                    admin.topics().createNonPartitionedTopic(limited);
                    admin.topicPolicies().setPublishRate(limited, new PublishRate(each.limitEach(), -1));
                    AccuracyScenario.awaitPolicy(admin, limited);
                }
                case NONE -> {}
            }
        }
        return PublishRun.run(each.contender().serviceUrl(), topic, each.workload(), seconds);
    }
}
