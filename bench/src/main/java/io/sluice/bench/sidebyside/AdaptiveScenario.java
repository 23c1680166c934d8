package io.sluice.bench.sidebyside;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.net.URI;
import java.net.http.HttpRequest;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Adaptive limits against a struggling broker (docs/BENCHMARKS.md, "Adaptive limits"): an
 * {@code online} producer sends synchronously at {@value #ONLINE_RATE} msg/s while a {@code bulk}
 * producer floods a topic of its own on another connection, in four cases of equal length: online
 * alone; beside the flood with no limit; beside the flood with a fixed limit on bulk at a best
 * guess (half of what it passed unlimited); beside the flood with an adaptive limit on bulk (a
 * ceiling ten times what it passed unlimited, at least 1,000,000 msg/s, target
 * {@value #TARGET_MILLIS} ms). After the adaptive case the flood stops and the time until the rate
 * in force is back at the ceiling is measured. The bars: online p99 at most 3x alone (or 15 ms,
 * whichever is larger), bulk at least 10 % of its unlimited rate, back at the ceiling within 30 s.
 */
final class AdaptiveScenario {

    static final int ONLINE_RATE = 200;
    static final double TARGET_MILLIS = 10;
    static final double FLOOR_FRACTION = 0.01;
    /** Online p99s from this far into a case on are its steady state (an adaptive limit needs a few intervals to bite). */
    private static final double STEADY_AFTER_SECONDS = 5;

    private static final double RECOVERY_BAR_SECONDS = 30;
    private static final ObjectMapper JSON = new ObjectMapper();

    /** One second of a case: bulk's acknowledged rate, online's p99, and the adaptive rate in force (NaN without). */
    record Second(double bulkRate, double onlineP99, double rateInForce, double brokerP99) {}

    /** What one case measured. */
    record Outcome(
            String name,
            int completed,
            int due,
            double p50,
            double p99,
            double steadyP99,
            double bulkRate,
            List<Second> seconds) {}

    private AdaptiveScenario() {}

    static void run(AdaptiveWorkload workload, double seconds, Path outputDir, Report report) throws Exception {
        String slug = workload.protocol().toLowerCase(Locale.ROOT);
        List<Outcome> outcomes = new ArrayList<>();
        double recovery;
        double ceiling;
        try (AdaptiveWorkload.Online online = workload.online();
                AdaptiveWorkload.Bulk bulk = workload.bulk()) {
            workload.limitBulk(null);
            outcomes.add(measure(workload, "online alone", online, null, seconds, false));
            Outcome unlimited = measure(workload, "beside the flood, no limit", online, bulk, seconds, false);
            outcomes.add(unlimited);
            double guess = Math.max(1, Math.round(unlimited.bulkRate() / 2));
            workload.limitBulk("{\"publish\": {\"messagesPerSecond\": " + guess + "}, \"onExceed\": \"delay\"}");
            outcomes.add(measure(
                    workload,
                    "beside the flood, bulk fixed at " + MarkdownTable.num(guess, 0) + " msg/s",
                    online,
                    bulk,
                    seconds,
                    false));
            ceiling = Math.max(1_000_000, Math.round(unlimited.bulkRate() * 10));
            workload.limitBulk("{\"publish\": {\"messagesPerSecond\": " + ceiling + ", \"adaptive\":"
                    + " {\"targetLatencyMillis\": " + TARGET_MILLIS + ", \"floorFraction\": " + FLOOR_FRACTION
                    + "}}, \"onExceed\": \"delay\"}");
            outcomes.add(measure(
                    workload,
                    "beside the flood, bulk adaptive (ceiling " + MarkdownTable.num(ceiling, 0) + " msg/s, target "
                            + MarkdownTable.num(TARGET_MILLIS, 0) + " ms)",
                    online,
                    bulk,
                    seconds,
                    true));
            recovery = recoverySeconds(workload, online, ceiling);
            workload.limitBulk(null);
        }
        report(workload, outcomes, recovery, ceiling, seconds, outputDir.resolve("adaptive-" + slug + ".png"), report);
    }

    private static Outcome measure(
            AdaptiveWorkload workload,
            String name,
            AdaptiveWorkload.Online online,
            AdaptiveWorkload.Bulk bulk,
            double seconds,
            boolean adaptive)
            throws Exception {
        LatencySamples all = new LatencySamples();
        LatencySamples steady = new LatencySamples();
        AtomicReference<LatencySamples> thisSecond = new AtomicReference<>(new LatencySamples());
        List<Second> timeline = new ArrayList<>();
        ScheduledExecutorService sampler = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread thread = new Thread(r, "adaptive-sampler");
            thread.setDaemon(true);
            return thread;
        });
        long[] lastAcknowledged = {bulk == null ? 0 : bulk.acknowledged()};
        if (bulk != null) {
            bulk.start();
        }
        long start = System.nanoTime();
        sampler.scheduleAtFixedRate(
                () -> {
                    long acknowledged = bulk == null ? 0 : bulk.acknowledged();
                    double[] adapted = adaptive ? rateInForce(workload) : new double[] {Double.NaN, Double.NaN};
                    LatencySamples second = thisSecond.getAndSet(new LatencySamples());
                    synchronized (timeline) {
                        timeline.add(new Second(
                                acknowledged - lastAcknowledged[0],
                                second.percentileMillis(0.99),
                                adapted[0],
                                adapted[1]));
                    }
                    lastAcknowledged[0] = acknowledged;
                },
                1,
                1,
                TimeUnit.SECONDS);
        int due = (int) (ONLINE_RATE * seconds);
        int completed = 0;
        long bulkFrom = 0;
        long bulkFromNanos = start;
        for (int i = 0; i < due; i++) {
            long wait = start + i * 1_000_000_000L / ONLINE_RATE - System.nanoTime();
            if (wait > 0) {
                Sleep.nanos(wait);
            } else if (-wait > 1_000_000_000L) {
                // A second behind: the sends due meanwhile never left, as a synchronous client's would not.
                continue;
            }
            if (bulk != null && bulkFrom == 0 && System.nanoTime() - start >= 1_000_000_000L) {
                bulkFrom = bulk.acknowledged();
                bulkFromNanos = System.nanoTime();
            }
            try {
                long latency = online.send();
                all.add(latency);
                thisSecond.get().add(latency);
                if (System.nanoTime() - start >= STEADY_AFTER_SECONDS * 1e9) {
                    steady.add(latency);
                }
                completed++;
            } catch (Exception failed) {
                // Counted as not completed.
            }
        }
        double bulkRate =
                bulk == null ? 0 : (bulk.acknowledged() - bulkFrom) / ((System.nanoTime() - bulkFromNanos) / 1e9);
        sampler.shutdownNow();
        if (bulk != null) {
            bulk.stop();
        }
        Outcome outcome;
        synchronized (timeline) {
            outcome = new Outcome(
                    name,
                    completed,
                    due,
                    all.percentileMillis(0.50),
                    all.percentileMillis(0.99),
                    steady.percentileMillis(0.99),
                    bulkRate,
                    List.copyOf(timeline));
        }
        System.out.printf(
                "  adaptive %s: online %d/%d, p99 %.2f ms (steady %.2f ms), bulk %.0f msg/s%n",
                name, completed, due, outcome.p99(), outcome.steadyP99(), bulkRate);
        return outcome;
    }

    /** After the flood stopped, online traffic only: seconds until the rate in force is the ceiling again. */
    private static double recoverySeconds(AdaptiveWorkload workload, AdaptiveWorkload.Online online, double ceiling)
            throws Exception {
        long start = System.nanoTime();
        while (System.nanoTime() - start < 2 * RECOVERY_BAR_SECONDS * 1e9) {
            online.send();
            Sleep.millis(1000 / ONLINE_RATE);
            if (rateInForce(workload)[0] >= ceiling) {
                return (System.nanoTime() - start) / 1e9;
            }
        }
        return Double.POSITIVE_INFINITY;
    }

    /** The bulk topic's adaptive rate in force and the broker latency it followed; the ceiling when none is shown yet. */
    private static double[] rateInForce(AdaptiveWorkload workload) {
        try {
            String body = SluiceContender.send(
                    HttpRequest.newBuilder(URI.create(workload.sluice().adminUrl() + "/api/v1/adaptive"))
                            .build());
            for (JsonNode scope : JSON.readTree(body).get("scopes")) {
                JsonNode latency = scope.get("latencyP99Millis");
                return new double[] {
                    scope.get("effectiveRate").asDouble(),
                    latency == null || latency.isNull() ? Double.NaN : latency.asDouble()
                };
            }
        } catch (Exception e) {
            // Shown as no figure for that second.
        }
        return new double[] {Double.NaN, Double.NaN};
    }

    private static void report(
            AdaptiveWorkload workload,
            List<Outcome> outcomes,
            double recovery,
            double ceiling,
            double seconds,
            Path png,
            Report report) {
        MarkdownTable table = new MarkdownTable(
                "case",
                "online completed / due",
                "online p50 ms",
                "online p99 ms",
                "online p99 from 5 s, ms",
                "bulk acknowledged msg/s");
        for (Outcome o : outcomes) {
            table.row(
                    o.name(),
                    o.completed() + " / " + o.due(),
                    MarkdownTable.num(o.p50(), 2),
                    MarkdownTable.num(o.p99(), 2),
                    MarkdownTable.num(o.steadyP99(), 2),
                    o.bulkRate() == 0 ? "-" : MarkdownTable.num(o.bulkRate(), 0));
        }
        Outcome alone = outcomes.get(0);
        Outcome unlimited = outcomes.get(1);
        Outcome adaptive = outcomes.get(3);
        double p99Bar = Math.max(3 * alone.p99(), 15);
        report.heading("Adaptive limits, " + workload.protocol() + ": online at " + ONLINE_RATE
                + " msg/s beside a bulk flood (" + MarkdownTable.num(seconds, 0) + " s a case)");
        report.table(table);
        report.text(String.format(
                Locale.ROOT,
                "Bars: online p99 with bulk adaptive %.2f ms (from 5 s on: %.2f ms) against at most %.2f ms (3x alone or"
                        + " 15 ms) %s; bulk %.0f msg/s, %.0f %% of its unlimited %.0f msg/s (at least 10 %%) %s; the rate"
                        + " in force back at the ceiling of %.0f msg/s %.1f s after the flood stopped (at most 30 s) %s.",
                adaptive.p99(),
                adaptive.steadyP99(),
                p99Bar,
                adaptive.steadyP99() <= p99Bar ? "met" : "NOT met",
                adaptive.bulkRate(),
                100 * adaptive.bulkRate() / unlimited.bulkRate(),
                unlimited.bulkRate(),
                adaptive.bulkRate() >= 0.1 * unlimited.bulkRate() ? "met" : "NOT met",
                ceiling,
                recovery,
                recovery <= RECOVERY_BAR_SECONDS ? "met" : "NOT met"));
        List<Second> timeline = adaptive.seconds();
        double[] t = new double[timeline.size()];
        double[] bulk = new double[timeline.size()];
        double[] rate = new double[timeline.size()];
        double[] onlineP99 = new double[timeline.size()];
        double[] brokerP99 = new double[timeline.size()];
        for (int i = 0; i < timeline.size(); i++) {
            t[i] = i + 1;
            bulk[i] = timeline.get(i).bulkRate();
            rate[i] = timeline.get(i).rateInForce();
            onlineP99[i] = timeline.get(i).onlineP99();
            brokerP99[i] = timeline.get(i).brokerP99();
        }
        Charts.adaptiveTimeline(
                workload.protocol() + ": bulk adaptive beside online",
                t,
                bulk,
                rate,
                onlineP99,
                brokerP99,
                TARGET_MILLIS,
                png);
        report.text("![adaptive timeline](bench/" + png.getFileName() + ")");
    }
}
