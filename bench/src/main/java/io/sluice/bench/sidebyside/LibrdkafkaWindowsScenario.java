package io.sluice.bench.sidebyside;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.apache.kafka.clients.admin.Admin;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * How a Kafka produce limit holds over short windows against librdkafka with its default batching
 * ({@code batch.size} 1,000,000 bytes, {@code batch.num.messages} 10,000, {@code linger.ms} 5):
 * python3-confluent-kafka floods a topic through Sluice for {@code bench.librdkafkaSeconds} (60 by
 * default), at each of 100, 1,000 and 10,000 records/s and at 1,000,000 B/s, and every window of
 * 10 s that starts on a whole second is compared with the limit's 10 s (docs/KAFKA.md, "Large
 * batches", for the rule it checks), and, at 100 and 1,000 records/s, the rule's remedy (batches of half a
 * second's rate, {@code burstSeconds} 0.5). Records count by the second their delivery report came.
 * Bytes are the delivered records at the bytes per record Sluice counted for the topic.
 *
 * <p>Not among the suite's default scenarios (it takes four minutes): {@code
 * -Dbench.scenarios=librdkafka}. Needs Debian's {@code python3-confluent-kafka}; without it the
 * scenario says so and measures nothing.
 */
final class LibrdkafkaWindowsScenario {

    private static final int[] RECORD_RATES = {100, 1_000, 10_000};
    private static final int[] TUNED_RATES = {100, 1_000};
    private static final long BYTE_RATE = 1_000_000;
    private static final int RECORD_BYTES = 100;
    private static final int WINDOW_SECONDS = 10;
    private static final double BAR_PERCENT = 10;
    private static final ObjectMapper JSON = new ObjectMapper();
    /** Debian's interpreter, which python3-confluent-kafka installs into (a pyenv python3 earlier on PATH has none). */
    private static final String PYTHON = "/usr/bin/python3";

    private LibrdkafkaWindowsScenario() {}

    static void run(KafkaSluiceContender sluice, Admin admin, Path workDir, Report report) throws Exception {
        int seconds = Integer.getInteger("bench.librdkafkaSeconds", 60);
        Path script = workDir.resolve("librdkafka_flood.py");
        try (InputStream in = LibrdkafkaWindowsScenario.class.getResourceAsStream("librdkafka_flood.py")) {
            Files.copy(in, script, StandardCopyOption.REPLACE_EXISTING);
        }
        String missing = missingClient();
        if (missing != null) {
            report.text("librdkafka windows: not measured (" + missing + ").");
            System.out.println("  librdkafka windows: not measured (" + missing + ")");
            return;
        }
        report.text(
                "librdkafka (python3-confluent-kafka " + clientVersion() + ") with its default batching floods a"
                        + " topic of 3 partitions through Sluice for " + seconds + " s per limit, records of "
                        + RECORD_BYTES
                        + " B; each 10 s window starting on a whole second against the limit's 10 s (`delay`, `burstSeconds` 1).");
        MarkdownTable table = new MarkdownTable(
                "limit",
                "windows",
                "within ±10 %",
                "first window error %",
                "lowest error %",
                "highest error %",
                "mean rate over the flood",
                "failed");
        for (int rate : RECORD_RATES) {
            String topic = "librdkafka-records-" + rate;
            KafkaQuotaSideBySide.createTopic(admin, topic, 3);
            sluice.putTopicLimit(topic, "{\"publish\":{\"messagesPerSecond\":" + rate + "}}");
            Flood flood = flood(sluice, script, topic, seconds, List.of());
            row(table, rate + " records/s", rate, flood.perSecond(), flood.failed());
        }
        // Where the defaults' batches (about 9,000 records of 100 B) are several seconds of the rate, the
        // rule's remedy: batches of half a second's rate and burstSeconds 0.5.
        for (int rate : TUNED_RATES) {
            String topic = "librdkafka-records-" + rate + "-tuned";
            KafkaQuotaSideBySide.createTopic(admin, topic, 3);
            sluice.putTopicLimit(topic, "{\"publish\":{\"messagesPerSecond\":" + rate + ", \"burstSeconds\": 0.5}}");
            Flood flood = flood(sluice, script, topic, seconds, List.of("batch.num.messages=" + rate / 2));
            row(
                    table,
                    rate + " records/s, burstSeconds 0.5, batch.num.messages " + rate / 2,
                    rate,
                    flood.perSecond(),
                    flood.failed());
        }
        String topic = "librdkafka-bytes";
        KafkaQuotaSideBySide.createTopic(admin, topic, 3);
        sluice.putTopicLimit(topic, "{\"publish\":{\"bytesPerSecond\":" + BYTE_RATE + "}}");
        double recordsBefore = sluice.topicCounter("sluice_publish_messages_total", topic);
        double bytesBefore = sluice.topicCounter("sluice_publish_bytes_total", topic);
        Flood flood = flood(sluice, script, topic, seconds, List.of());
        double bytesPerRecord = (sluice.topicCounter("sluice_publish_bytes_total", topic) - bytesBefore)
                / Math.max(1, sluice.topicCounter("sluice_publish_messages_total", topic) - recordsBefore);
        double[] bytesPerSecond = new double[flood.perSecond().length];
        for (int i = 0; i < bytesPerSecond.length; i++) {
            bytesPerSecond[i] = flood.perSecond()[i] * bytesPerRecord;
        }
        row(
                table,
                BYTE_RATE + " B/s (" + MarkdownTable.num(bytesPerRecord, 1) + " B a record)",
                BYTE_RATE,
                bytesPerSecond,
                flood.failed());
        report.table(table);
    }

    /** One flood's delivered records per second and its failed deliveries. */
    private record Flood(double[] perSecond, long failed) {}

    /** Floods {@code topic} for {@code seconds}; {@code config} holds librdkafka settings ({@code KEY=VALUE}) beside the defaults. */
    private static Flood flood(KafkaSluiceContender sluice, Path script, String topic, int seconds, List<String> config)
            throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(
                PYTHON,
                script.toString(),
                "--bootstrap",
                sluice.bootstrap(),
                "--topic",
                topic,
                "--seconds",
                Integer.toString(seconds),
                "--size",
                Integer.toString(RECORD_BYTES)));
        for (String setting : config) {
            command.add("--config");
            command.add(setting);
        }
        Process process = new ProcessBuilder(command)
                .redirectError(ProcessBuilder.Redirect.INHERIT)
                .start();
        String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!process.waitFor(seconds + 60L, TimeUnit.SECONDS) || process.exitValue() != 0) {
            process.destroyForcibly();
            throw new IllegalStateException("the librdkafka flood on " + topic + " failed: " + out);
        }
        JsonNode result = JSON.readTree(out);
        double[] perSecond = new double[result.get("perSecond").size()];
        for (int i = 0; i < perSecond.length; i++) {
            perSecond[i] = result.get("perSecond").get(i).asDouble();
        }
        long failed = 0;
        for (JsonNode count : result.get("errors")) {
            failed += count.asLong();
        }
        return new Flood(perSecond, failed);
    }

    private static void row(MarkdownTable table, String limit, double rate, double[] perSecond, long failed) {
        List<Double> errors = new ArrayList<>();
        for (int start = 0; start + WINDOW_SECONDS <= perSecond.length; start++) {
            double sum = 0;
            for (int i = start; i < start + WINDOW_SECONDS; i++) {
                sum += perSecond[i];
            }
            errors.add((sum / (rate * WINDOW_SECONDS) - 1) * 100);
        }
        long within = errors.stream().filter(e -> Math.abs(e) <= BAR_PERCENT).count();
        double total = 0;
        for (double second : perSecond) {
            total += second;
        }
        table.row(
                limit,
                errors.size(),
                within,
                MarkdownTable.num(errors.get(0), 1),
                MarkdownTable.num(
                        errors.stream().mapToDouble(Double::doubleValue).min().orElse(0), 1),
                MarkdownTable.num(
                        errors.stream().mapToDouble(Double::doubleValue).max().orElse(0), 1),
                MarkdownTable.num(total / perSecond.length, 0),
                failed);
        System.out.printf(
                "  librdkafka windows %s: %d of %d windows within ±%.0f %%, errors %.1f to %.1f %%, first %.1f %%%n",
                limit,
                within,
                errors.size(),
                BAR_PERCENT,
                errors.stream().mapToDouble(Double::doubleValue).min().orElse(0),
                errors.stream().mapToDouble(Double::doubleValue).max().orElse(0),
                errors.get(0));
        System.out.println("  per second: " + Arrays.toString(perSecond));
    }

    /** Why the client cannot run here, or null when it can. */
    private static String missingClient() throws InterruptedException {
        try {
            Process probe = new ProcessBuilder(PYTHON, "-c", "import confluent_kafka")
                    .redirectErrorStream(true)
                    .start();
            probe.getInputStream().readAllBytes();
            return probe.waitFor() == 0
                    ? null
                    : PYTHON + " has no confluent_kafka (apt-get install python3-confluent-kafka)";
        } catch (IOException e) {
            return "no " + PYTHON;
        }
    }

    private static String clientVersion() throws IOException, InterruptedException {
        Process probe = new ProcessBuilder(
                        PYTHON,
                        "-c",
                        "import confluent_kafka; print(confluent_kafka.version()[0], 'librdkafka',"
                                + " confluent_kafka.libversion()[0])")
                .redirectErrorStream(true)
                .start();
        String version = new String(probe.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
        probe.waitFor();
        return version;
    }
}
