package io.sluice.bench.sidebyside;

import org.apache.pulsar.client.admin.PulsarAdmin;
import org.apache.pulsar.common.policies.data.PublishRate;
import org.apache.pulsar.common.policies.data.TopicStats;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Scenario (c): one producer floods a topic limited to R msg/s, once through Sluice (limit set
 * over its REST API) and once directly against the broker's own topic publish-rate policy; the
 * achieved rate over time is compared with R. Then the same for one bytes/s limit, with the bytes
 * counted as the broker stores them (its topic stats), for both enforcers alike.
 */
final class AccuracyScenario {

    /**
     * 100 B messages, not batched: with batches of hundreds of messages both limiters admit in
     * lumps, and a 10 s window at 100 msg/s sees a few lumps only.
     */
    private static final Workload FLOOD = new Workload(100, false, 2000, 1, false);
    /** The first seconds carry the bucket's initial burst; the steady rate is read after them. */
    private static final double SETTLE_SECONDS = 2;

    private AccuracyScenario() {}

    static void run(
            SluiceContender sluice,
            String brokerUrl,
            String brokerWebUrl,
            BenchSettings settings,
            Path workDir,
            Report report)
            throws Exception {
        double seconds = settings.accuracySeconds();
        MarkdownTable table = new MarkdownTable(
                "limit msg/s",
                "enforced by",
                "first 1 s msg/s",
                "steady msg/s (" + MarkdownTable.num(SETTLE_SECONDS, 0) + " s to end)",
                "steady error %",
                "failed sends");
        MarkdownTable bytesTable = new MarkdownTable(
                "limit B/s",
                "enforced by",
                "B per message stored",
                "steady B/s (" + MarkdownTable.num(SETTLE_SECONDS, 0) + " s to end)",
                "steady error %",
                "failed sends");
        try (PulsarAdmin admin =
                PulsarAdmin.builder().serviceHttpUrl(brokerWebUrl).build()) {
            for (int rate : settings.accuracyRates()) {
                Map<String, double[][]> series = new LinkedHashMap<>();

                String sluiceTopic = "persistent://public/default/accuracy-sluice-" + rate + "-" + System.nanoTime();
                sluice.putTopicLimit(sluiceTopic, "{\"publish\":{\"messagesPerSecond\":" + rate + "}}");
                // Profiled, when asked, in the measured run itself: the first flood of a fresh Sluice is
                // the one that shows how its held path warms up, and there is no second first time.
                PublishRun.Result viaSluice = settings.profile()
                        ? ProfiledRun.profile(
                                sluice.contender(),
                                "accuracy flood, limit " + rate + " msg/s",
                                settings,
                                workDir,
                                report,
                                () -> PublishRun.run(sluice.contender().serviceUrl(), sluiceTopic, FLOOD, seconds))
                        : PublishRun.run(sluice.contender().serviceUrl(), sluiceTopic, FLOOD, seconds);
                row(table, rate, "Sluice (delay)", viaSluice, seconds);
                series.put("Sluice", viaSluice.timeline().series(seconds));

                String brokerTopic = "persistent://public/default/accuracy-broker-" + rate + "-" + System.nanoTime();
                admin.topics().createNonPartitionedTopic(brokerTopic);
                admin.topicPolicies().setPublishRate(brokerTopic, new PublishRate(rate, -1));
                awaitPolicy(admin, brokerTopic);
                PublishRun.Result viaBroker = PublishRun.run(brokerUrl, brokerTopic, FLOOD, seconds);
                row(table, rate, "broker publish-rate policy", viaBroker, seconds);
                series.put("broker policy", viaBroker.timeline().series(seconds));

                String png = "accuracy-" + rate + ".png";
                Charts.rateOverTime(
                        "Achieved rate, limit " + rate + " msg/s",
                        rate,
                        series,
                        settings.outputDir().resolve(png));
            }

            long limit = settings.accuracyBytesPerSecond();
            String sluiceTopic = "persistent://public/default/accuracy-bytes-sluice-" + System.nanoTime();
            sluice.putTopicLimit(sluiceTopic, "{\"publish\":{\"bytesPerSecond\":" + limit + "}}");
            PublishRun.Result viaSluice = PublishRun.run(sluice.contender().serviceUrl(), sluiceTopic, FLOOD, seconds);
            bytesRow(
                    bytesTable, limit, "Sluice (delay)", viaSluice, seconds, storedBytesPerMessage(admin, sluiceTopic));

            String brokerTopic = "persistent://public/default/accuracy-bytes-broker-" + System.nanoTime();
            admin.topics().createNonPartitionedTopic(brokerTopic);
            admin.topicPolicies().setPublishRate(brokerTopic, new PublishRate(-1, limit));
            awaitPolicy(admin, brokerTopic);
            PublishRun.Result viaBroker = PublishRun.run(brokerUrl, brokerTopic, FLOOD, seconds);
            bytesRow(
                    bytesTable,
                    limit,
                    "broker publish-rate policy",
                    viaBroker,
                    seconds,
                    storedBytesPerMessage(admin, brokerTopic));
        }
        report.heading("Accuracy: one producer floods a limited topic (" + MarkdownTable.num(seconds, 0) + " s)");
        report.table(table);
        report.text("Under a bytes/s limit (bytes as the broker stores them: its topic's bytes in over messages in):");
        report.table(bytesTable);
        for (int rate : settings.accuracyRates()) {
            report.text("![rate over time, limit " + rate + "](bench/accuracy-" + rate + ".png)");
        }
    }

    private static void row(MarkdownTable table, int rate, String enforcer, PublishRun.Result result, double seconds) {
        double steady = result.timeline().rate(SETTLE_SECONDS, seconds);
        table.row(
                rate,
                enforcer,
                MarkdownTable.num(result.timeline().rate(0, 1), 0),
                MarkdownTable.num(steady, 1),
                MarkdownTable.num(100 * (steady - rate) / rate, 2),
                result.failed());
        System.out.printf("  accuracy %d msg/s via %s: steady %.1f msg/s%n", rate, enforcer, steady);
    }

    private static void bytesRow(
            MarkdownTable table,
            long limit,
            String enforcer,
            PublishRun.Result result,
            double seconds,
            double bytesPerMessage) {
        double steady = result.timeline().rate(SETTLE_SECONDS, seconds) * bytesPerMessage;
        table.row(
                limit,
                enforcer,
                MarkdownTable.num(bytesPerMessage, 1),
                MarkdownTable.num(steady, 0),
                MarkdownTable.num(100 * (steady - limit) / limit, 2),
                result.failed());
        System.out.printf("  accuracy %d B/s via %s: steady %.0f B/s%n", limit, enforcer, steady);
    }

    /** Every message of a flood has the same size: the broker's byte count over its message count is that size. */
    private static double storedBytesPerMessage(PulsarAdmin admin, String topic) throws Exception {
        TopicStats stats = admin.topics().getStats(topic);
        return (double) stats.getBytesInCounter() / stats.getMsgInCounter();
    }

    /** Topic policies travel through a system topic; wait until the broker reports this one. */
    static void awaitPolicy(PulsarAdmin admin, String topic) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (admin.topicPolicies().getPublishRate(topic) == null) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("the broker did not apply the publish-rate policy of " + topic);
            }
            Sleep.millis(200);
        }
        // Reported is not yet applied to the producer's limiter everywhere; give it a moment.
        Sleep.millis(1000);
    }
}
