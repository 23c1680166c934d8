package io.sluice.bench.sidebyside;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.LongSupplier;

/**
 * How exactly Sluice holds a Kafka topic's produce and fetch limits: a saturating stock producer
 * (unbatched, {@code linger.ms=0}, and batched, {@code linger.ms=5}) against a produce limit in
 * records/s and one in bytes/s, and a consumer reading a full topic against a fetch limit in
 * records/s and one in bytes/s. Each rate is read over a steady window, at Sluice (its per-topic
 * counters, docs/REFERENCE.md, Metrics) and at the client (acknowledgements, records received). The
 * window opens after the warm-up once Sluice lists the topic as throttled: the bucket's burst
 * (a second of the limit) is spent by then, even when the client took longer than the warm-up to
 * reach the limit.
 */
final class KafkaAccuracyScenario {

    static final int RECORD_BYTES = 100;
    private static final int[] LINGERS = {0, 5};
    private static final int FETCH_RECORDS_PER_SECOND = 1_000;
    private static final double PRODUCE_BAR_PERCENT = 2;
    private static final double FETCH_BAR_PERCENT = 5;
    /** How long after the warm-up the window waits for Sluice to throttle a topic before it opens anyway. */
    static final double SATURATION_WAIT_SECONDS = 10;

    /**
     * One run's rates over the steady window, which opened {@code windowStart} seconds after the
     * client started, and the client's rate over time.
     */
    private record Measured(
            double windowStart,
            double sluiceRecords,
            double sluiceBytes,
            double clientRecords,
            double firstSecond,
            long failed,
            double[][] series) {

        double bytesPerRecord() {
            return sluiceBytes / sluiceRecords;
        }
    }

    private KafkaAccuracyScenario() {}

    static void run(
            KafkaSluiceContender sluice, String clusterBootstrap, Admin admin, BenchSettings settings, Report report)
            throws Exception {
        double warmup = settings.warmupSeconds();
        double window = settings.accuracySeconds();
        String heading = MarkdownTable.num(warmup, 0) + " s warm-up and until Sluice throttles the topic, then "
                + MarkdownTable.num(window, 0) + " s measured; records of " + RECORD_BYTES
                + " B, 3 partitions, acks=all";

        MarkdownTable ceiling = new MarkdownTable("producer", "acknowledged records/s, no limit");
        for (int linger : LINGERS) {
            String topic = "quota-ceiling-linger-" + linger;
            KafkaQuotaSideBySide.createTopic(admin, topic, 3);
            Measured m = produce(sluice, topic, linger, inFlight(100_000), warmup, window, false);
            ceiling.row(producer(linger), MarkdownTable.num(m.clientRecords(), 0));
            System.out.printf(
                    "  kafka quota ceiling %s: %.0f records/s, load %s%n",
                    producer(linger), m.clientRecords(), LoadAverage.now());
        }

        MarkdownTable records = new MarkdownTable(
                "limit records/s",
                "producer",
                "first 1 s acknowledged/s",
                "window from s",
                "at Sluice records/s",
                "error %",
                "acknowledged records/s",
                "error %",
                "failed",
                "within ±2 %");
        for (int rate : settings.accuracyRates()) {
            Map<String, double[][]> series = new LinkedHashMap<>();
            for (int linger : LINGERS) {
                String topic = "quota-records-" + rate + "-linger-" + linger;
                KafkaQuotaSideBySide.createTopic(admin, topic, 3);
                sluice.putTopicLimit(topic, "{\"publish\":{\"messagesPerSecond\":" + rate + "}}");
                Measured m = produce(sluice, topic, linger, inFlight(rate), warmup, window, true);
                double atSluice = error(m.sluiceRecords(), rate);
                double atClient = error(m.clientRecords(), rate);
                records.row(
                        rate,
                        producer(linger),
                        MarkdownTable.num(m.firstSecond(), 0),
                        MarkdownTable.num(m.windowStart(), 1),
                        MarkdownTable.num(m.sluiceRecords(), 1),
                        MarkdownTable.num(atSluice, 2),
                        MarkdownTable.num(m.clientRecords(), 1),
                        MarkdownTable.num(atClient, 2),
                        m.failed(),
                        met(PRODUCE_BAR_PERCENT, atSluice, atClient));
                figure(report, "produce records/s", rate + " linger " + linger, atSluice, atClient);
                series.put(producer(linger), m.series());
                System.out.printf(
                        "  kafka quota %d records/s %s: at Sluice %.1f, acknowledged %.1f, load %s%n",
                        rate, producer(linger), m.sluiceRecords(), m.clientRecords(), LoadAverage.now());
            }
            Charts.rateOverTime(
                    "Kafka produce, limit " + rate + " records/s (through Sluice)",
                    rate,
                    series,
                    settings.outputDir().resolve("kafka-quota-produce-" + rate + ".png"));
        }

        long byteRate = settings.accuracyBytesPerSecond();
        MarkdownTable bytes = new MarkdownTable(
                "limit B/s",
                "producer",
                "B per record (as Sluice counts)",
                "at Sluice B/s",
                "error %",
                "acknowledged B/s",
                "error %",
                "failed",
                "within ±2 %");
        for (int linger : LINGERS) {
            String topic = "quota-bytes-linger-" + linger;
            KafkaQuotaSideBySide.createTopic(admin, topic, 3);
            sluice.putTopicLimit(topic, "{\"publish\":{\"bytesPerSecond\":" + byteRate + "}}");
            Measured m =
                    produce(sluice, topic, linger, inFlight((int) (byteRate / RECORD_BYTES)), warmup, window, true);
            double acknowledgedBytes = m.clientRecords() * m.bytesPerRecord();
            double atSluice = error(m.sluiceBytes(), byteRate);
            double atClient = error(acknowledgedBytes, byteRate);
            bytes.row(
                    byteRate,
                    producer(linger),
                    MarkdownTable.num(m.bytesPerRecord(), 1),
                    MarkdownTable.num(m.sluiceBytes(), 0),
                    MarkdownTable.num(atSluice, 2),
                    MarkdownTable.num(acknowledgedBytes, 0),
                    MarkdownTable.num(atClient, 2),
                    m.failed(),
                    met(PRODUCE_BAR_PERCENT, atSluice, atClient));
            figure(report, "produce bytes/s", byteRate + " linger " + linger, atSluice, atClient);
            System.out.printf(
                    "  kafka quota %d B/s %s: at Sluice %.0f, acknowledged %.0f, load %s%n",
                    byteRate, producer(linger), m.sluiceBytes(), acknowledgedBytes, LoadAverage.now());
        }

        MarkdownTable fetch = new MarkdownTable(
                "fetch limit", "at Sluice", "error %", "received by the consumer", "error %", "within ±5 %");
        Map<String, double[][]> fetchSeries = new LinkedHashMap<>();
        String recordsTopic = "quota-fetch-records";
        KafkaQuotaSideBySide.createTopic(admin, recordsTopic, 3);
        fill(clusterBootstrap, recordsTopic, (long) (FETCH_RECORDS_PER_SECOND * (warmup + window) * 1.5) + 1_000);
        sluice.putTopicLimit(recordsTopic, "{\"dispatch\":{\"messagesPerSecond\":" + FETCH_RECORDS_PER_SECOND + "}}");
        Measured r = consume(sluice, recordsTopic, warmup, window);
        double rAtSluice = error(r.sluiceRecords(), FETCH_RECORDS_PER_SECOND);
        double rAtClient = error(r.clientRecords(), FETCH_RECORDS_PER_SECOND);
        fetch.row(
                FETCH_RECORDS_PER_SECOND + " records/s",
                MarkdownTable.num(r.sluiceRecords(), 1),
                MarkdownTable.num(rAtSluice, 2),
                MarkdownTable.num(r.clientRecords(), 1),
                MarkdownTable.num(rAtClient, 2),
                met(FETCH_BAR_PERCENT, rAtSluice, rAtClient));
        figure(report, "fetch records/s", Integer.toString(FETCH_RECORDS_PER_SECOND), rAtSluice, rAtClient);
        fetchSeries.put("records/s limit (records/s)", r.series());

        String bytesTopic = "quota-fetch-bytes";
        KafkaQuotaSideBySide.createTopic(admin, bytesTopic, 3);
        fill(clusterBootstrap, bytesTopic, (long) (byteRate / RECORD_BYTES * (warmup + window) * 1.5) + 1_000);
        sluice.putTopicLimit(bytesTopic, "{\"dispatch\":{\"bytesPerSecond\":" + byteRate + "}}");
        Measured b = consume(sluice, bytesTopic, warmup, window);
        double receivedBytes = b.clientRecords() * b.bytesPerRecord();
        double bAtSluice = error(b.sluiceBytes(), byteRate);
        double bAtClient = error(receivedBytes, byteRate);
        fetch.row(
                byteRate + " B/s",
                MarkdownTable.num(b.sluiceBytes(), 0),
                MarkdownTable.num(bAtSluice, 2),
                MarkdownTable.num(receivedBytes, 0),
                MarkdownTable.num(bAtClient, 2),
                met(FETCH_BAR_PERCENT, bAtSluice, bAtClient));
        figure(report, "fetch bytes/s", Long.toString(byteRate), bAtSluice, bAtClient);
        System.out.printf(
                "  kafka quota fetch: %.1f records/s (limit %d), %.0f B/s (limit %d), load %s%n",
                r.clientRecords(), FETCH_RECORDS_PER_SECOND, receivedBytes, byteRate, LoadAverage.now());
        Charts.rateOverTime(
                "Kafka fetch, limit " + FETCH_RECORDS_PER_SECOND + " records/s (through Sluice)",
                FETCH_RECORDS_PER_SECOND,
                fetchSeries,
                settings.outputDir().resolve("kafka-quota-fetch.png"));

        report.heading("Kafka quotas: produce accuracy (" + heading + ")");
        report.text("What the producer reaches through Sluice with no limit (the ceiling of this machine):");
        report.table(ceiling);
        report.text("Records/s limits, the rate read at Sluice (`sluice_publish_messages_total`) and from the"
                + " producer's acknowledgements over the measured window:");
        report.table(records);
        report.text("A bytes/s limit (bytes as Sluice counts them: the record batch bytes the broker stores;"
                + " acknowledged B/s is acknowledged records/s times Sluice's bytes per record):");
        report.table(bytes);
        for (int rate : settings.accuracyRates()) {
            report.text("![rate over time, limit " + rate + "](bench/kafka-quota-produce-" + rate + ".png)");
        }
        report.heading("Kafka quotas: fetch accuracy (" + heading + "; a consumer reads a full topic from the start)");
        report.table(fetch);
        report.text("![fetch rate over time](bench/kafka-quota-fetch.png)");
    }

    /** Records outstanding for a saturating producer: two seconds of the limit, at least 1,000. */
    private static int inFlight(int rate) {
        return Math.max(1_000, Math.min(100_000, 2 * rate));
    }

    private static String producer(int linger) {
        return linger == 0 ? "unbatched (linger.ms=0)" : "batched (linger.ms=" + linger + ")";
    }

    private static double error(double measured, double limit) {
        return 100 * (measured - limit) / limit;
    }

    private static String met(double barPercent, double... errors) {
        for (double error : errors) {
            if (!(Math.abs(error) <= barPercent)) {
                return "no";
            }
        }
        return "yes";
    }

    private static void figure(Report report, String workload, String limit, double atSluice, double atClient) {
        report.figures()
                .add(
                        "kafka-quota-accuracy",
                        workload + " " + limit,
                        "Sluice",
                        "abs error % at Sluice",
                        Math.abs(atSluice),
                        false,
                        false,
                        1);
        report.figures()
                .add(
                        "kafka-quota-accuracy",
                        workload + " " + limit,
                        "Sluice",
                        "abs error % at the client",
                        Math.abs(atClient),
                        false,
                        false,
                        1);
    }

    private static Measured produce(
            KafkaSluiceContender sluice,
            String topic,
            int linger,
            int inFlight,
            double warmup,
            double window,
            boolean limited)
            throws Exception {
        try (KafkaFlood flood = KafkaFlood.start(
                sluice.bootstrap(),
                topic,
                linger,
                RECORD_BYTES,
                inFlight,
                warmup + SATURATION_WAIT_SECONDS + window + 1)) {
            return measure(
                    sluice,
                    topic,
                    "publish",
                    flood.acknowledged(),
                    flood.startNanos(),
                    warmup,
                    window,
                    limited,
                    flood::failed);
        }
    }

    /** Reads {@code topic} from its start through Sluice, every partition assigned to one consumer. */
    private static Measured consume(KafkaSluiceContender sluice, String topic, double warmup, double window)
            throws Exception {
        Properties props = new Properties();
        props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, sluice.bootstrap());
        props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        AtomicBoolean consuming = new AtomicBoolean(true);
        long start = System.nanoTime();
        RateTimeline received = new RateTimeline(start, 0.25, warmup + SATURATION_WAIT_SECONDS + window + 1);
        Thread consumer = new Thread(
                () -> {
                    try (KafkaConsumer<byte[], byte[]> c =
                            new KafkaConsumer<>(props, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
                        List<TopicPartition> partitions = c.partitionsFor(topic).stream()
                                .map(p -> new TopicPartition(topic, p.partition()))
                                .toList();
                        c.assign(partitions);
                        c.seekToBeginning(partitions);
                        while (consuming.get()) {
                            for (ConsumerRecord<byte[], byte[]> ignored : c.poll(Duration.ofMillis(100))) {
                                received.record(System.nanoTime());
                            }
                        }
                    }
                },
                "fetch-" + topic);
        consumer.setDaemon(true);
        consumer.start();
        try {
            return measure(sluice, topic, "dispatch", received, start, warmup, window, true, () -> 0);
        } finally {
            consuming.set(false);
            consumer.join(10_000);
        }
    }

    /**
     * Sluice's counters of {@code direction} at the start and the end of the window, and the
     * client's timeline; with {@code limited}, the window opens only once Sluice throttles the topic
     * (at most {@link #SATURATION_WAIT_SECONDS} after the warm-up).
     */
    private static Measured measure(
            KafkaSluiceContender sluice,
            String topic,
            String direction,
            RateTimeline client,
            long clientStart,
            double warmup,
            double window,
            boolean limited,
            LongSupplier failed) {
        Sleep.nanos((long) (warmup * 1e9));
        long giveUp = System.nanoTime() + (long) (SATURATION_WAIT_SECONDS * 1e9);
        while (limited && !sluice.throttled(topic) && System.nanoTime() < giveUp) {
            Sleep.millis(100);
        }
        long startNanos = System.nanoTime();
        double startRecords = sluice.topicCounter("sluice_" + direction + "_messages_total", topic);
        double startBytes = sluice.topicCounter("sluice_" + direction + "_bytes_total", topic);
        Sleep.nanos((long) (window * 1e9));
        double endRecords = sluice.topicCounter("sluice_" + direction + "_messages_total", topic);
        double endBytes = sluice.topicCounter("sluice_" + direction + "_bytes_total", topic);
        double seconds = (System.nanoTime() - startNanos) / 1e9;
        double from = (startNanos - clientStart) / 1e9;
        return new Measured(
                from,
                (endRecords - startRecords) / seconds,
                (endBytes - startBytes) / seconds,
                client.rate(from, from + window),
                client.rate(0, 1),
                failed.getAsLong(),
                client.series(from + window));
    }

    /** Writes {@code count} records straight to the cluster, batched, for a consumer to read later. */
    private static void fill(String clusterBootstrap, String topic, long count) {
        Properties props = new Properties();
        props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, clusterBootstrap);
        props.put(ProducerConfig.LINGER_MS_CONFIG, "5");
        try (KafkaProducer<byte[], byte[]> producer =
                new KafkaProducer<>(props, new ByteArraySerializer(), new ByteArraySerializer())) {
            byte[] value = new byte[RECORD_BYTES];
            for (long i = 0; i < count; i++) {
                producer.send(new ProducerRecord<>(topic, value));
            }
            producer.flush();
        }
    }
}
