package io.sluice.bench.sidebyside;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.quota.ClientQuotaAlteration;
import org.apache.kafka.common.quota.ClientQuotaEntity;
import org.apache.kafka.common.serialization.ByteArraySerializer;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The noisy neighbour on Kafka: one producer writes topic A, limited to 100 records/s and flooded,
 * and topic B, unlimited and paced at 200 records/s, both led by the same broker so that they share
 * the producer's connection. B's produce latency beside the flood is compared with B alone, through
 * Sluice's topic quota ({@code delay}) and, for contrast, directly against Kafka's own client-id
 * quota ({@code producer_byte_rate}), which throttles the whole client (docs/KAFKA.md).
 */
final class KafkaIsolationScenario {

    private static final int A_LIMIT = 100;
    private static final int A_IN_FLIGHT = 5_000;
    private static final int B_RATE = 200;
    /** The flood settles (A's backlog is in the client's queue) before B is measured. */
    private static final double SETTLE_SECONDS = 2;
    /**
     * Kafka's quota is in bytes of produce requests per client id: A's 100 and B's 200 records/s of
     * 100 B, each about 200 B in a request of its own.
     */
    private static final double KAFKA_BYTE_RATE = (A_LIMIT + B_RATE) * 200.0;

    /** How topic A is limited before the run. */
    private interface Limiter {
        void limit(String topicA, String clientId) throws Exception;
    }

    private record Mode(String name, String bootstrap, boolean floodA, boolean kafkaQuota, Limiter limiter) {}

    /** What B experienced, and what A achieved meanwhile. */
    private record Outcome(int sent, int completed, double p50, double p99, double aRate) {}

    private KafkaIsolationScenario() {}

    static void run(
            KafkaSluiceContender sluice, String clusterBootstrap, Admin admin, BenchSettings settings, Report report)
            throws Exception {
        double seconds = settings.isolationSeconds();
        List<Mode> modes = List.of(
                new Mode("direct, A idle", clusterBootstrap, false, false, (a, client) -> {}),
                new Mode("Sluice, A idle", sluice.bootstrap(), false, false, (a, client) -> {}),
                new Mode(
                        "Sluice topic quota (delay), A flooded",
                        sluice.bootstrap(),
                        true,
                        false,
                        (a, client) -> sluice.putTopicLimit(
                                a, "{\"publish\":{\"messagesPerSecond\":" + A_LIMIT + "},\"onExceed\":\"delay\"}")),
                new Mode(
                        "Kafka client-id quota (producer_byte_rate " + MarkdownTable.num(KAFKA_BYTE_RATE, 0)
                                + "), A flooded",
                        clusterBootstrap,
                        true,
                        true,
                        (a, client) -> kafkaQuota(admin, client, KAFKA_BYTE_RATE)));
        Map<Mode, List<Outcome>> outcomes = new LinkedHashMap<>();
        modes.forEach(mode -> outcomes.put(mode, new ArrayList<>()));
        // Rounds take turns (every mode, then every mode again): a stall of the shared machine hits one
        // round of one mode, and the median over rounds shows it as such.
        for (int round = 0; round < settings.rounds(); round++) {
            int index = 0;
            for (Mode mode : modes) {
                String clientId = "isolation-" + round + "-" + index++;
                Outcome o;
                try {
                    o = measure(mode, admin, clientId, "isolation-a-" + clientId, "isolation-b-" + clientId, seconds);
                } finally {
                    if (mode.kafkaQuota()) {
                        kafkaQuota(admin, clientId, null);
                    }
                }
                outcomes.get(mode).add(o);
                System.out.printf(
                        "  kafka isolation round %d %s: B %d/%d, p50 %.2f ms, p99 %.2f ms, A %.1f records/s,"
                                + " load %s%n",
                        round + 1,
                        mode.name(),
                        o.completed(),
                        o.sent(),
                        o.p50(),
                        o.p99(),
                        o.aRate(),
                        LoadAverage.now());
            }
        }
        MarkdownTable table = new MarkdownTable(
                "mode",
                "B completed / sent",
                "B p50 ms",
                "B p99 ms",
                "B p99 per round ms",
                "B p99 vs B alone (same path)",
                "A acknowledged records/s");
        Map<String, Double> aloneP99 = new HashMap<>();
        for (Map.Entry<Mode, List<Outcome>> entry : outcomes.entrySet()) {
            Mode mode = entry.getKey();
            List<Outcome> runs = entry.getValue();
            double p99 = Median.of(runs, Outcome::p99);
            if (!mode.floodA()) {
                aloneP99.put(mode.bootstrap(), p99);
            }
            double vsAlone = p99 / aloneP99.getOrDefault(mode.bootstrap(), Double.NaN);
            table.row(
                    mode.name(),
                    runs.stream().mapToInt(Outcome::completed).sum() + " / "
                            + runs.stream().mapToInt(Outcome::sent).sum(),
                    MarkdownTable.num(Median.of(runs, Outcome::p50), 2),
                    MarkdownTable.num(p99, 2),
                    String.join(
                            ", ",
                            runs.stream()
                                    .map(o -> MarkdownTable.num(o.p99(), 1))
                                    .toList()),
                    mode.floodA() ? MarkdownTable.num(vsAlone, 2) : "-",
                    mode.floodA() ? MarkdownTable.num(Median.of(runs, Outcome::aRate), 1) : "-");
            if (mode.floodA()) {
                report.figures()
                        .add(
                                "kafka-quota-isolation",
                                mode.name(),
                                mode.kafkaQuota() ? "Kafka" : "Sluice",
                                "B p99 beside the flood / alone",
                                vsAlone,
                                false,
                                true,
                                0.5);
            }
        }
        report.heading("Kafka quotas: isolation, noisy neighbour on one producer (A limited to " + A_LIMIT
                + " records/s, " + A_IN_FLIGHT + " records outstanding; B unlimited, paced at " + B_RATE
                + " records/s for " + MarkdownTable.num(seconds, 0)
                + " s; one partition each, same leader, linger.ms=0;"
                + " medians of " + settings.rounds() + " rounds)");
        report.table(table);
    }

    /** Sets (or with null removes) Kafka's produce byte-rate quota of one client id. */
    private static void kafkaQuota(Admin admin, String clientId, Double bytesPerSecond) throws Exception {
        ClientQuotaEntity entity = new ClientQuotaEntity(Map.of(ClientQuotaEntity.CLIENT_ID, clientId));
        admin.alterClientQuotas(List.of(new ClientQuotaAlteration(
                        entity, List.of(new ClientQuotaAlteration.Op("producer_byte_rate", bytesPerSecond)))))
                .all()
                .get(30, TimeUnit.SECONDS);
        // The brokers learn the quota from the metadata log; give them a moment.
        Sleep.millis(1000);
    }

    private static Outcome measure(
            Mode mode, Admin admin, String clientId, String topicA, String topicB, double seconds) throws Exception {
        KafkaQuotaSideBySide.createTopic(admin, topicA, 1);
        KafkaQuotaSideBySide.createTopic(admin, topicB, 1);
        mode.limiter().limit(topicA, clientId);
        Properties props = new Properties();
        props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, mode.bootstrap());
        props.put(ProducerConfig.CLIENT_ID_CONFIG, clientId);
        props.put(ProducerConfig.LINGER_MS_CONFIG, "0");
        props.put(ProducerConfig.ACKS_CONFIG, "all");
        KafkaProducer<byte[], byte[]> producer =
                new KafkaProducer<>(props, new ByteArraySerializer(), new ByteArraySerializer());
        AtomicBoolean stop = new AtomicBoolean();
        AtomicLong aAcknowledged = new AtomicLong();
        Thread flooder = null;
        try {
            byte[] value = new byte[KafkaAccuracyScenario.RECORD_BYTES];
            producer.send(new ProducerRecord<>(topicA, value)).get(60, TimeUnit.SECONDS);
            producer.send(new ProducerRecord<>(topicB, value)).get(60, TimeUnit.SECONDS);
            if (mode.floodA()) {
                flooder = new Thread(() -> flood(producer, topicA, stop, aAcknowledged), "flood-" + topicA);
                flooder.setDaemon(true);
                flooder.start();
            }
            Sleep.nanos((long) (SETTLE_SECONDS * 1e9));
            long aBefore = aAcknowledged.get();
            long start = System.nanoTime();
            LatencySamples latencies = new LatencySamples();
            AtomicInteger completed = new AtomicInteger();
            int sent = paced(producer, topicB, value, seconds, latencies, completed);
            double aRate = (aAcknowledged.get() - aBefore) / ((System.nanoTime() - start) / 1e9);
            // Every send of B ends within the producer's delivery timeout; a stalled B shows as not completed.
            long wait = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (completed.get() < sent && System.nanoTime() < wait) {
                Sleep.millis(50);
            }
            return new Outcome(
                    sent, completed.get(), latencies.percentileMillis(0.50), latencies.percentileMillis(0.99), aRate);
        } finally {
            stop.set(true);
            if (flooder != null) {
                flooder.join(5_000);
            }
            producer.close(Duration.ZERO);
        }
    }

    /** Sends {@link #B_RATE} records a second, each on its due time; returns how many were sent. */
    private static int paced(
            KafkaProducer<byte[], byte[]> producer,
            String topic,
            byte[] value,
            double seconds,
            LatencySamples latencies,
            AtomicInteger completed) {
        long interval = TimeUnit.SECONDS.toNanos(1) / B_RATE;
        int count = (int) (seconds * B_RATE);
        long start = System.nanoTime();
        for (int i = 0; i < count; i++) {
            long wait = start + i * interval - System.nanoTime();
            if (wait > 0) {
                Sleep.nanos(wait);
            }
            long sent = System.nanoTime();
            producer.send(new ProducerRecord<>(topic, value), (metadata, error) -> {
                if (error == null) {
                    latencies.add(System.nanoTime() - sent);
                    completed.incrementAndGet();
                }
            });
        }
        return count;
    }

    /** Keeps {@link #A_IN_FLIGHT} records of A outstanding until told to stop. */
    private static void flood(
            KafkaProducer<byte[], byte[]> producer, String topic, AtomicBoolean stop, AtomicLong acknowledged) {
        Semaphore window = new Semaphore(A_IN_FLIGHT);
        byte[] value = new byte[KafkaAccuracyScenario.RECORD_BYTES];
        try {
            while (!stop.get()) {
                if (window.tryAcquire(100, TimeUnit.MILLISECONDS)) {
                    producer.send(new ProducerRecord<>(topic, value), (metadata, error) -> {
                        if (error == null) {
                            acknowledged.incrementAndGet();
                        }
                        window.release();
                    });
                }
            }
        } catch (InterruptedException | KafkaException e) {
            // Told to stop.
        }
    }
}
