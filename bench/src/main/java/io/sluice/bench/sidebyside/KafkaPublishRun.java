package io.sluice.bench.sidebyside;

import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;

import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * One producer running a {@link KafkaWorkload} against a bootstrap address for a while: records
 * acknowledged per second, send-to-acknowledgement latency, and with a consumer, publish-to-receive
 * latency (the send time is stamped in the record's first eight bytes).
 */
final class KafkaPublishRun {

    /** What one run measured. */
    record Result(
            long completed,
            long failed,
            double messagesPerSecond,
            LatencySamples latencies,
            long received,
            LatencySamples endToEnd)
            implements ProfiledRun.Outcome {}

    private KafkaPublishRun() {}

    /** Runs {@code workload} on {@code topic} through {@code contender} for {@code seconds}. */
    static Result run(Contender contender, String topic, KafkaWorkload workload, double seconds) throws Exception {
        Properties client = new Properties();
        client.put(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, contender.serviceUrl());
        client.putAll(contender.clientSettings());
        LatencySamples latencies = new LatencySamples();
        LatencySamples endToEnd = new LatencySamples();
        AtomicLong completed = new AtomicLong();
        AtomicLong failed = new AtomicLong();
        AtomicLong received = new AtomicLong();
        AtomicBoolean consuming = new AtomicBoolean(workload.consumer());
        Thread consumer = workload.consumer() ? consumer(client, topic, consuming, received, endToEnd) : null;
        Semaphore window = new Semaphore(workload.inFlight());
        long start;
        long end;
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(
                producerProps(client, workload), new ByteArraySerializer(), new ByteArraySerializer())) {
            producer.partitionsFor(topic);
            start = System.nanoTime();
            long deadline = start + (long) (seconds * 1e9);
            while (System.nanoTime() < deadline) {
                window.acquire();
                long sent = System.nanoTime();
                byte[] value = new byte[workload.recordBytes()];
                ByteBuffer.wrap(value).putLong(sent);
                producer.send(new ProducerRecord<>(topic, value), (metadata, error) -> {
                    if (error == null) {
                        latencies.add(System.nanoTime() - sent);
                        completed.incrementAndGet();
                    } else {
                        failed.incrementAndGet();
                    }
                    window.release();
                });
            }
            window.acquire(workload.inFlight());
            end = System.nanoTime();
        }
        if (consumer != null) {
            long wait = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (received.get() < completed.get() && System.nanoTime() < wait) {
                Thread.sleep(20);
            }
            consuming.set(false);
            consumer.join();
        }
        return new Result(
                completed.get(),
                failed.get(),
                completed.get() / ((end - start) / 1e9),
                latencies,
                received.get(),
                endToEnd);
    }

    private static Properties producerProps(Properties client, KafkaWorkload workload) {
        Properties props = new Properties();
        props.putAll(client);
        props.put(ProducerConfig.LINGER_MS_CONFIG, Integer.toString(workload.lingerMillis()));
        props.put(ProducerConfig.ACKS_CONFIG, "all");
        props.put(ProducerConfig.BUFFER_MEMORY_CONFIG, Integer.toString(64 << 20));
        return props;
    }

    /** A consumer of every partition from its end, stamping receive times until told to stop. */
    private static Thread consumer(
            Properties client, String topic, AtomicBoolean consuming, AtomicLong received, LatencySamples endToEnd)
            throws InterruptedException {
        Properties props = new Properties();
        props.putAll(client);
        props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        java.util.concurrent.CountDownLatch assigned = new java.util.concurrent.CountDownLatch(1);
        Thread thread = new Thread(
                () -> {
                    try (KafkaConsumer<byte[], byte[]> consumer =
                            new KafkaConsumer<>(props, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
                        List<TopicPartition> partitions = consumer.partitionsFor(topic).stream()
                                .map((PartitionInfo p) -> new TopicPartition(topic, p.partition()))
                                .toList();
                        consumer.assign(partitions);
                        consumer.seekToEnd(partitions);
                        partitions.forEach(consumer::position);
                        assigned.countDown();
                        while (consuming.get()) {
                            for (ConsumerRecord<byte[], byte[]> record : consumer.poll(Duration.ofMillis(100))) {
                                endToEnd.add(System.nanoTime()
                                        - ByteBuffer.wrap(record.value()).getLong());
                                received.incrementAndGet();
                            }
                        }
                    }
                },
                "e2e-consumer");
        thread.setDaemon(true);
        thread.start();
        assigned.await(60, TimeUnit.SECONDS);
        return thread;
    }
}
