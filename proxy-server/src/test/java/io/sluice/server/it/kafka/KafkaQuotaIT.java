package io.sluice.server.it.kafka;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.Callback;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.Metric;
import org.apache.kafka.common.MetricName;
import org.apache.kafka.common.errors.PolicyViolationException;
import org.apache.kafka.common.quota.ClientQuotaAlteration;
import org.apache.kafka.common.quota.ClientQuotaEntity;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Kafka quotas with stock Java clients through Sluice to the real cluster: each produce action,
 * fetch limits beside unlimited topics, no loss or duplicate for delayed records, and a limited
 * topic that does not slow another on the same producer, with Kafka's own client quota beside it
 * for contrast, and limits flipping under a producer while a broker restarts (last, as it disturbs
 * the others). Rates are measured from the clients' acknowledgements and receipts over a window
 * after the first burst, with tolerances for a loaded two-core machine; the figures are printed.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class KafkaQuotaIT {

    private static BrokersOnlySluiceReaches brokers;
    private static SluiceForKafka sluice;
    private static KafkaClients clients;

    @BeforeAll
    static void start() {
        brokers = BrokersOnlySluiceReaches.get();
        sluice = SluiceForKafka.start(brokers, brokers.plaintextBootstrap());
        clients = new KafkaClients(sluice.bootstrap());
    }

    @AfterAll
    static void stop() {
        if (sluice != null) {
            sluice.closeCheckingLeaks();
        }
    }

    @Test
    void rejectFailsTheOverQuotaRecordsWithSluicesMessageAndDeliversTheOtherTopic() throws Exception {
        String limited = KafkaClientsIT.unique("reject");
        String free = KafkaClientsIT.unique("reject-free");
        createOnOneLeader(limited, free);
        limit(limited, "{\"publish\": {\"messagesPerSecond\": 10}, \"onExceed\": \"reject\"}");
        List<Future<?>> limitedSends = new ArrayList<>();
        List<Future<?>> freeSends = new ArrayList<>();
        try (KafkaProducer<String, String> producer =
                clients.producer(ProducerConfig.LINGER_MS_CONFIG, "20", ProducerConfig.BATCH_SIZE_CONFIG, "256")) {
            for (int i = 0; i < 200; i++) {
                limitedSends.add(producer.send(new ProducerRecord<>(limited, "r" + i)));
                freeSends.add(producer.send(new ProducerRecord<>(free, "f" + i)));
            }
            producer.flush();
        }
        int rejected = 0;
        String message = null;
        for (Future<?> send : limitedSends) {
            try {
                send.get();
            } catch (ExecutionException e) {
                assertInstanceOf(PolicyViolationException.class, e.getCause());
                rejected++;
                message = e.getCause().getMessage();
            }
        }
        for (Future<?> send : freeSends) {
            send.get();
        }
        System.out.printf(
                "[kafka-quota] reject: %d of 200 records of the limited topic rejected, 200 of 200 of the free"
                        + " topic delivered; message: %s%n",
                rejected, message);
        assertTrue(rejected > 100, "rejected " + rejected);
        assertTrue(
                message != null
                        && message.startsWith("throttled: topic " + limited + " exceeds 10.0 msg/s; retry after"),
                message);
        assertEquals(200, consume(List.of(free), 200).size());
        assertTrue(throttleEventCounted(limited, "reject"), "a throttle event counted with protocol=\"kafka\"");
    }

    @Test
    void delayHoldsTheRateWithoutErrorsLossOrDuplicates() throws Exception {
        double rate = 300;
        String topic = produceLimited("delay", 3, rate);
        int total = 2_400;
        Acknowledgements acked = new Acknowledgements();
        try (KafkaProducer<String, String> producer = clients.producer(
                ProducerConfig.BATCH_SIZE_CONFIG, "512", ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, "120000")) {
            for (int i = 0; i < total; i++) {
                producer.send(new ProducerRecord<>(topic, "k" + (i % 30), Integer.toString(i)), acked);
            }
            KafkaClientsIT.await(() -> throttledNow(topic, "delay"), "the producer listed in /api/v1/throttled");
            producer.flush();
        }
        assertEquals(List.of(), acked.failures);
        double measured = acked.rateAfterFirstSecond();
        double seconds = (System.nanoTime() - acked.start) / 1e9;
        System.out.printf(
                "[kafka-quota] delay: %d records at a limit of %.0f/s acknowledged in %.1f s, %.1f records/s"
                        + " after the first second, no error%n",
                total, rate, seconds, measured);
        // Above the rate is a quota not kept. Each connection produces this one topic, so a batch due within a
        // second is held in Sluice and goes when due rather than bounced: a bounced batch is resent after
        // retry.backoff.ms, doubling up to retry.backoff.max.ms (1 s), and the bucket idled meanwhile (bounced,
        // runs measured 186 to 307 records/s at a limit of 300; held, 300.4; docs/KAFKA.md, "Short holds").
        assertTrue(measured <= rate * 1.1 && measured >= rate * 0.85, "delayed produce rate " + measured);
        List<ConsumerRecord<String, String>> read = consume(List.of(topic), total);
        Map<String, Integer> lastPerKey = new HashMap<>();
        java.util.Set<String> values = new java.util.HashSet<>();
        for (ConsumerRecord<String, String> record : read) {
            assertTrue(values.add(record.value()), "duplicate " + record.value());
            int value = Integer.parseInt(record.value());
            Integer last = lastPerKey.put(record.key(), value);
            assertTrue(
                    last == null || last < value,
                    "out of order in key " + record.key() + ": " + last + " then " + value);
        }
        assertEquals(total, values.size(), "records read back");
        System.out.printf(
                "[kafka-quota] delay: read back %d records, lost 0, duplicated 0, order kept per key%n", read.size());
        assertTrue(throttleEventCounted(topic, "delay"), "a throttle event counted with protocol=\"kafka\"");
    }

    @Test
    void acksZeroRecordsOverQuotaAreHeldAndAllReachTheBrokerInOrderAtTheRate() throws Exception {
        double rate = 200;
        String topic = produceLimited("delay", 1, rate);
        int total = 600;
        long start = System.nanoTime();
        double sentSeconds;
        List<ConsumerRecord<String, String>> read;
        // The producer stays connected while Sluice releases what it holds: held acks=0 batches go with their
        // connection (docs/KAFKA.md).
        try (KafkaProducer<String, String> producer = clients.producer(
                ProducerConfig.ACKS_CONFIG, "0",
                ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "false",
                ProducerConfig.BATCH_SIZE_CONFIG, "512")) {
            for (int i = 0; i < total; i++) {
                producer.send(new ProducerRecord<>(topic, Integer.toString(i)));
            }
            producer.flush();
            sentSeconds = (System.nanoTime() - start) / 1e9;
            read = consume(List.of(topic), total);
        }
        double seconds = (System.nanoTime() - start) / 1e9;
        System.out.printf(
                "[kafka-quota] acks=0: %d records at a limit of %.0f/s left the producer in %.2f s, all %d read back after"
                        + " %.2f s%n",
                total, rate, sentSeconds, read.size(), seconds);
        // No response can tell an acks=0 producer to slow down, so Sluice holds what is over quota and forwards it
        // as the bucket refills: every record arrives, in order, no sooner than the limit allows after its burst.
        assertEquals(
                IntStream.range(0, total).mapToObj(Integer::toString).toList(),
                read.stream().map(ConsumerRecord::value).toList(),
                "every record once, in order");
        assertTrue(
                seconds >= (total - rate) / rate * 0.8, "records reached the broker faster than the limit: " + seconds);
    }

    @Test
    void notifyTellsTheClientAThrottleTimeAndTheRateHolds() throws Exception {
        double rate = 300;
        String topic = produceLimited("notify", 1, rate);
        int total = 2_400;
        Acknowledgements acked = new Acknowledgements();
        double throttleMax;
        try (KafkaProducer<String, String> producer = clients.producer(ProducerConfig.BATCH_SIZE_CONFIG, "512")) {
            for (int i = 0; i < total; i++) {
                producer.send(new ProducerRecord<>(topic, Integer.toString(i)), acked);
            }
            producer.flush();
            throttleMax = metric(producer.metrics(), "produce-throttle-time-max");
        }
        assertEquals(List.of(), acked.failures);
        double seconds = (Collections.max(acked.times) - acked.start) / 1e9;
        // The bucket holds one second of rate: the first 300 go at once, the rest at the rate. A notified client pauses
        // only once a response tells it to, so its acknowledgements come in bursts and a rate over a sub-window
        // swings; the time all of them took is what the quota decides. The debt of the last requests in flight (up
        // to five of about 40 records each) is never waited out, as nothing follows them.
        double expected = (total - rate) / rate;
        System.out.printf(
                "[kafka-quota] notify: %d records at a limit of %.0f/s acknowledged in %.2f s (%.1f s at the limit"
                        + " after its burst), client's produce-throttle-time-max %.0f ms%n",
                total, rate, seconds, expected, throttleMax);
        assertTrue(throttleMax > 0, "the client saw a throttle time");
        assertTrue(seconds >= expected * 0.85, "notified records went faster than the limit: " + seconds + " s");
        assertTrue(seconds <= expected * 1.5, "notified records went much slower than the limit: " + seconds + " s");
    }

    @Test
    void aFetchLimitedTopicArrivesAtItsRateWhileAnotherInTheSameConsumerDoesNot() throws Exception {
        String limited = KafkaClientsIT.unique("fetch-limited");
        String free = KafkaClientsIT.unique("fetch-free");
        createOnOneLeader(limited, free);
        int total = 2_000;
        try (KafkaProducer<String, String> producer = clients.producer(ProducerConfig.BATCH_SIZE_CONFIG, "512")) {
            for (int i = 0; i < total; i++) {
                producer.send(new ProducerRecord<>(limited, Integer.toString(i)));
                producer.send(new ProducerRecord<>(free, Integer.toString(i)));
            }
            producer.flush();
        }
        double rate = 400;
        limit(limited, "{\"dispatch\": {\"messagesPerSecond\": " + rate + "}}");
        List<Long> limitedReceived = new ArrayList<>();
        long freeDoneNanos = 0;
        int freeReceived = 0;
        long start;
        try (KafkaConsumer<String, String> consumer =
                clients.consumer(ConsumerConfig.GROUP_ID_CONFIG, KafkaClientsIT.unique("fetch-group"))) {
            consumer.subscribe(List.of(limited, free));
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            start = 0;
            while (limitedReceived.size() < total && System.nanoTime() < deadline) {
                for (ConsumerRecord<String, String> record : consumer.poll(Duration.ofMillis(100))) {
                    long now = System.nanoTime();
                    if (start == 0) {
                        start = now;
                    }
                    if (record.topic().equals(limited)) {
                        limitedReceived.add(now);
                    } else if (++freeReceived == total) {
                        freeDoneNanos = now;
                    }
                }
            }
        }
        assertEquals(total, limitedReceived.size(), "records of the limited topic received");
        assertEquals(total, freeReceived, "records of the free topic received");
        double measured = rateAfterFirstSecond(limitedReceived, start);
        double freeSeconds = (freeDoneNanos - start) / 1e9;
        double limitedSeconds = (limitedReceived.get(total - 1) - start) / 1e9;
        System.out.printf(
                "[kafka-quota] fetch: limited topic at %.0f/s received at %.1f records/s after the first second"
                        + " (all %d in %.1f s); the free topic in the same consumer all %d in %.2f s%n",
                rate, measured, total, limitedSeconds, total, freeSeconds);
        assertWithin(rate, measured, 0.15, "fetch rate of the limited topic");
        assertTrue(freeSeconds < limitedSeconds / 2, "the free topic was not slowed to the limited one's pace");
    }

    @Test
    void aFloodedLimitedTopicDoesNotSlowAnotherTopicOfTheSameProducer() throws Exception {
        String flooded = KafkaClientsIT.unique("isolation-a");
        String steady = KafkaClientsIT.unique("isolation-b");
        createOnOneLeader(flooded, steady);
        double rate = 100;
        limit(flooded, "{\"publish\": {\"messagesPerSecond\": " + rate + "}, \"onExceed\": \"delay\"}");
        Isolation sluiceQuota;
        double steadyAlone;
        try (KafkaProducer<String, String> producer = clients.producer(
                ProducerConfig.LINGER_MS_CONFIG,
                "0",
                ProducerConfig.BATCH_SIZE_CONFIG,
                "512",
                ProducerConfig.CLIENT_ID_CONFIG,
                "isolation-sluice")) {
            warmUp(producer, flooded, steady);
            paced(producer, steady, 200, Duration.ofSeconds(1));
            // A second round only when the first missed the bar: a load spike of the shared machine in one
            // window of a few seconds says nothing of Sluice; a topic held behind another misses it every time.
            int round = 0;
            do {
                steadyAlone = p99(paced(producer, steady, 200, Duration.ofSeconds(4)));
                sluiceQuota = flood(producer, flooded, steady);
                System.out.printf(
                        "[kafka-quota] isolation through Sluice's topic quota (round %d): topic B (200 records/s)"
                                + " p99 %.1f ms alone, %.1f ms beside topic A flooded at a limit of %.0f/s; A acknowledged"
                                + " %.1f records/s%n",
                        ++round, steadyAlone, sluiceQuota.steadyP99, rate, sluiceQuota.floodedRate);
            } while (round < 2 && !isolated(sluiceQuota, steadyAlone));
        }

        // The same through Kafka's own quota on the client id, for contrast: it throttles the whole client.
        String kafkaFlooded = KafkaClientsIT.unique("isolation-kafka-a");
        String kafkaSteady = KafkaClientsIT.unique("isolation-kafka-b");
        createOnOneLeader(kafkaFlooded, kafkaSteady);
        ClientQuotaEntity entity = new ClientQuotaEntity(Map.of(ClientQuotaEntity.CLIENT_ID, "isolation-kafka"));
        Isolation kafkaQuota;
        try (Admin admin = clients.admin()) {
            // About B's 200 records/s and A's 100 records/s of these records, in the bytes Kafka counts.
            admin.alterClientQuotas(List.of(new ClientQuotaAlteration(
                            entity, List.of(new ClientQuotaAlteration.Op("producer_byte_rate", 300.0 * 200)))))
                    .all()
                    .get();
            try (KafkaProducer<String, String> producer = clients.producer(
                    ProducerConfig.LINGER_MS_CONFIG,
                    "0",
                    ProducerConfig.BATCH_SIZE_CONFIG,
                    "512",
                    ProducerConfig.CLIENT_ID_CONFIG,
                    "isolation-kafka")) {
                warmUp(producer, kafkaFlooded, kafkaSteady);
                kafkaQuota = flood(producer, kafkaFlooded, kafkaSteady);
            } finally {
                admin.alterClientQuotas(List.of(new ClientQuotaAlteration(
                                entity, List.of(new ClientQuotaAlteration.Op("producer_byte_rate", null)))))
                        .all()
                        .get();
            }
        }
        System.out.printf(
                "[kafka-quota] isolation through Kafka's client-id quota (contrast): topic B p99 %.1f ms beside"
                        + " topic A flooded; A acknowledged %.1f records/s%n",
                kafkaQuota.steadyP99, kafkaQuota.floodedRate);

        assertWithin(rate, sluiceQuota.floodedRate, 0.2, "flooded topic's rate");
        assertTrue(
                isolated(sluiceQuota, steadyAlone),
                "B's p99 " + sluiceQuota.steadyP99 + " ms beside the flood, " + steadyAlone + " ms alone");
    }

    /** B's p99 beside the flood at most twice B's alone, or 25 ms more: scheduling noise of a shared machine. */
    private static boolean isolated(Isolation beside, double steadyAlone) {
        return beside.steadyP99 <= Math.max(2 * steadyAlone, steadyAlone + 25);
    }

    @Test
    @Order(Integer.MAX_VALUE)
    void limitsFlippingEveryHundredMillisecondsAndABrokerRestartLoseAndDuplicateNothingAcknowledged() throws Exception {
        String topic = KafkaClientsIT.unique("flips");
        clients.createTopics(3, topic);
        String[] limits = {
            "{\"publish\": {\"messagesPerSecond\": 300}, \"onExceed\": \"delay\"}",
            "{\"publish\": {\"messagesPerSecond\": 2000}, \"onExceed\": \"notify\"}",
            "{\"publish\": {\"messagesPerSecond\": 500}, \"onExceed\": \"reject\"}",
            "{\"publish\": {\"messagesPerSecond\": 100, \"bytesPerSecond\": 20000}, \"onExceed\": \"delay\"}",
            "{\"publish\": {\"messagesPerSecond\": 1000}, \"onExceed\": \"notify\"}",
            "{}"
        };
        Map<Integer, List<Integer>> acknowledged = new java.util.concurrent.ConcurrentHashMap<>();
        Map<String, AtomicInteger> failures = new java.util.concurrent.ConcurrentHashMap<>();
        int restarted = brokers.cluster.nodeIds().get(1);
        Thread restart = new Thread(() -> brokers.cluster.restartBroker(restarted), "restart-broker");
        Semaphore outstanding = new Semaphore(500);
        AtomicInteger flips = new AtomicInteger();
        java.util.concurrent.ScheduledExecutorService flipper =
                java.util.concurrent.Executors.newSingleThreadScheduledExecutor();
        flipper.scheduleAtFixedRate(
                () -> {
                    try {
                        limit(topic, limits[flips.getAndIncrement() % limits.length]);
                    } catch (Exception e) {
                        throw new IllegalStateException(e);
                    }
                },
                0,
                100,
                TimeUnit.MILLISECONDS);
        int sent = 0;
        try (KafkaProducer<String, String> producer = clients.producer(
                ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG,
                "120000",
                ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG,
                "15000",
                ProducerConfig.BATCH_SIZE_CONFIG,
                "1024")) {
            long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(12);
            while (System.nanoTime() < end) {
                if (flips.get() >= 30 && restart.getState() == Thread.State.NEW) {
                    restart.start();
                }
                if (!outstanding.tryAcquire(10, TimeUnit.MILLISECONDS)) {
                    continue;
                }
                int value = sent++;
                producer.send(
                        new ProducerRecord<>(topic, value % 3, null, Integer.toString(value)), (metadata, error) -> {
                            outstanding.release();
                            if (error == null) {
                                acknowledged
                                        .computeIfAbsent(metadata.partition(), p -> new CopyOnWriteArrayList<>())
                                        .add(value);
                            } else {
                                failures.computeIfAbsent(error.getClass().getSimpleName(), e -> new AtomicInteger())
                                        .incrementAndGet();
                            }
                        });
            }
            flipper.shutdown();
            assertTrue(flipper.awaitTermination(10, TimeUnit.SECONDS));
            limit(topic, "{}");
            producer.flush();
        } finally {
            flipper.shutdownNow();
            restart.join(180_000);
        }
        assertTrue(brokers.cluster.isRunning(restarted));
        int acked = acknowledged.values().stream().mapToInt(List::size).sum();
        Map<Integer, List<Integer>> stored = new java.util.TreeMap<>();
        for (ConsumerRecord<String, String> record : consume(List.of(topic), acked)) {
            stored.computeIfAbsent(record.partition(), p -> new ArrayList<>()).add(Integer.parseInt(record.value()));
        }
        int lost = 0;
        int duplicated = 0;
        int outOfOrder = 0;
        for (int partition = 0; partition < 3; partition++) {
            List<Integer> values = stored.getOrDefault(partition, List.of());
            java.util.Set<Integer> distinct = new java.util.HashSet<>(values);
            duplicated += values.size() - distinct.size();
            for (int value : acknowledged.getOrDefault(partition, List.of())) {
                if (!distinct.contains(value)) {
                    lost++;
                }
            }
            for (int i = 1; i < values.size(); i++) {
                if (values.get(i) < values.get(i - 1)) {
                    outOfOrder++;
                }
            }
        }
        System.out.printf(
                "[kafka-quota] flips: %d limit changes in 12 s, one asked every 100 ms (delay, notify, reject, none) and broker %d"
                        + " restarted; %d records sent, %d acknowledged, failed by kind %s; lost %d, duplicated %d, out of order %d%n",
                flips.get(), restarted, sent, acked, failures, lost, duplicated, outOfOrder);
        assertEquals(0, lost, "acknowledged records lost");
        assertEquals(0, duplicated, "records duplicated");
        assertEquals(0, outOfOrder, "records out of order within a partition");
    }

    /** What one producer saw while topic {@code flooded} was offered far more than its rate and {@code steady} 200 records/s. */
    private record Isolation(double steadyP99, double floodedRate) {}

    private static Isolation flood(KafkaProducer<String, String> producer, String flooded, String steady)
            throws Exception {
        Semaphore outstanding = new Semaphore(400);
        Acknowledgements floodAcked = new Acknowledgements();
        Thread flooder = new Thread(
                () -> {
                    try {
                        for (int i = 0; !Thread.currentThread().isInterrupted(); i++) {
                            outstanding.acquire();
                            producer.send(new ProducerRecord<>(flooded, "flood-" + i), (metadata, e) -> {
                                outstanding.release();
                                floodAcked.onCompletion(metadata, e);
                            });
                        }
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    } catch (org.apache.kafka.common.KafkaException closed) {
                        // The producer closes under the flooder at the end.
                    }
                },
                "flooder");
        flooder.start();
        List<Long> latencies;
        try {
            Thread.sleep(1_000);
            latencies = paced(producer, steady, 200, Duration.ofSeconds(5));
        } finally {
            flooder.interrupt();
            flooder.join(10_000);
        }
        double floodedRate = floodAcked.rateAfterFirstSecond();
        return new Isolation(p99(latencies), floodedRate);
    }

    /** One record to each topic, so that the producer knows their metadata before anything is timed. */
    private static void warmUp(KafkaProducer<String, String> producer, String... topics) throws Exception {
        for (String topic : topics) {
            producer.send(new ProducerRecord<>(topic, "warm-up")).get(60, TimeUnit.SECONDS);
        }
    }

    /** When each record was acknowledged, counted from this object's making, and the records that failed. */
    private static final class Acknowledgements implements Callback {

        final long start = System.nanoTime();
        final List<Long> times = Collections.synchronizedList(new ArrayList<>());
        final List<Exception> failures = new CopyOnWriteArrayList<>();

        @Override
        public void onCompletion(RecordMetadata metadata, Exception e) {
            if (e == null) {
                times.add(System.nanoTime());
            } else {
                failures.add(e);
            }
        }

        /** Acknowledgements per second from one second after the start (the bucket's burst) to the last. */
        double rateAfterFirstSecond() {
            return KafkaQuotaIT.rateAfterFirstSecond(new ArrayList<>(times), start);
        }
    }

    /** Sends {@code perSecond} records to {@code topic} for {@code duration}; returns each one's latency in nanoseconds. */
    private static List<Long> paced(
            KafkaProducer<String, String> producer, String topic, int perSecond, Duration duration) throws Exception {
        ConcurrentLinkedQueue<Long> latencies = new ConcurrentLinkedQueue<>();
        List<Future<?>> sends = new ArrayList<>();
        long start = System.nanoTime();
        long interval = TimeUnit.SECONDS.toNanos(1) / perSecond;
        int count = (int) (duration.toNanos() / interval);
        for (int i = 0; i < count; i++) {
            long due = start + i * interval;
            long wait = due - System.nanoTime();
            if (wait > 0) {
                TimeUnit.NANOSECONDS.sleep(wait);
            }
            long sent = System.nanoTime();
            sends.add(producer.send(new ProducerRecord<>(topic, "steady-" + i), (metadata, e) -> {
                if (e == null) {
                    latencies.add(System.nanoTime() - sent);
                }
            }));
        }
        for (Future<?> send : sends) {
            send.get(60, TimeUnit.SECONDS);
        }
        return new ArrayList<>(latencies);
    }

    /** The 99th percentile of {@code nanos}, in milliseconds. */
    private static double p99(List<Long> nanos) {
        List<Long> sorted = new ArrayList<>(nanos);
        Collections.sort(sorted);
        return sorted.get((int) Math.ceil(sorted.size() * 0.99) - 1) / 1e6;
    }

    /**
     * Records per second over the times in {@code at} from one second after {@code start} to the last:
     * the first second holds the bucket's burst.
     */
    private static double rateAfterFirstSecond(List<Long> at, long start) {
        long from = start + TimeUnit.SECONDS.toNanos(1);
        long count = 0;
        long last = from;
        for (long t : at) {
            if (t > from) {
                count++;
                last = Math.max(last, t);
            }
        }
        assertTrue(last - from > TimeUnit.SECONDS.toNanos(2), "a window of at least two seconds after the burst");
        return count / ((last - from) / 1e9);
    }

    private static void assertWithin(double expected, double measured, double tolerance, String what) {
        assertTrue(
                Math.abs(measured - expected) <= expected * tolerance,
                what + ": " + measured + " where " + expected + " +-" + (int) (tolerance * 100) + " % was expected");
    }

    private static double metric(Map<MetricName, ? extends Metric> metrics, String name) {
        for (Map.Entry<MetricName, ? extends Metric> entry : metrics.entrySet()) {
            if (entry.getKey().name().equals(name) && entry.getKey().group().equals("producer-metrics")) {
                Object value = entry.getValue().metricValue();
                return value instanceof Double d && !d.isNaN() ? d : 0;
            }
        }
        fail("no producer metric " + name);
        return 0;
    }

    /** Topics of one partition whose leader is the same broker, so one producer reaches both over one connection. */
    private static void createOnOneLeader(String... topics) throws Exception {
        List<Integer> replicas = brokers.cluster.nodeIds();
        try (Admin admin = clients.admin()) {
            admin.createTopics(java.util.Arrays.stream(topics)
                            .map(topic -> new NewTopic(topic, Map.of(0, replicas))
                                    .configs(Map.of("min.insync.replicas", "2")))
                            .toList())
                    .all()
                    .get(60, TimeUnit.SECONDS);
        }
    }

    private static List<ConsumerRecord<String, String>> consume(List<String> topics, int count) {
        List<ConsumerRecord<String, String>> records = new ArrayList<>();
        try (KafkaConsumer<String, String> consumer =
                clients.consumer(ConsumerConfig.GROUP_ID_CONFIG, KafkaClientsIT.unique("read-back"))) {
            consumer.subscribe(topics);
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (records.size() < count && System.nanoTime() < deadline) {
                consumer.poll(Duration.ofMillis(200)).forEach(records::add);
            }
        }
        return records;
    }

    /** A new topic named after {@code action}, of {@code partitions}, limited to {@code rate} produced records a second with that action. */
    private static String produceLimited(String action, int partitions, double rate) throws Exception {
        String topic = KafkaClientsIT.unique(action);
        clients.createTopics(partitions, topic);
        limit(topic, "{\"publish\": {\"messagesPerSecond\": " + rate + "}, \"onExceed\": \"" + action + "\"}");
        return topic;
    }

    /** Whether {@code GET /api/v1/throttled} lists a Kafka client throttled on {@code topic} with {@code action}. */
    private static boolean throttledNow(String topic, String action) {
        String compact = sluice.get("/api/v1/throttled").body().replace(" ", "");
        return compact.contains("\"protocol\":\"kafka\"")
                && compact.contains("\"topic\":\"" + topic + "\"")
                && compact.contains("\"action\":\"" + action + "\"");
    }

    private static boolean throttleEventCounted(String topic, String action) {
        return sluice.metrics()
                .lines()
                .anyMatch(line -> line.startsWith("sluice_throttle_events_total{")
                        && line.contains("protocol=\"kafka\"")
                        && line.contains("topic=\"" + topic + "\"")
                        && line.contains("action=\"" + action + "\""));
    }

    private static void limit(String topic, String json) {
        sluice.limit(topic, json);
    }
}
