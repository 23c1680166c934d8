package io.sluice.bench.sidebyside;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The adaptive scenario through Sluice in front of the Kafka cluster: online sends 1 KiB records
 * one at a time ({@code acks=all}, no linger); bulk floods 1 KiB records with the client's batching
 * ({@code linger.ms=5}, 64 KiB batches, 32 MiB of buffer), each producer a client of its own.
 */
final class KafkaAdaptiveWorkload implements AdaptiveWorkload {

    private static final int PAYLOAD_BYTES = 1024;

    private final KafkaSluiceContender sluice;
    private final Admin admin;
    private final String bulkTopic = "adaptive-bulk-" + System.nanoTime();

    KafkaAdaptiveWorkload(KafkaSluiceContender sluice, Admin admin) {
        this.sluice = sluice;
        this.admin = admin;
    }

    @Override
    public String protocol() {
        return "Kafka";
    }

    @Override
    public TopicLimits sluice() {
        return sluice;
    }

    @Override
    public String bulkTopic() {
        return bulkTopic;
    }

    @Override
    public Online online() throws Exception {
        String topic = "adaptive-online-" + System.nanoTime();
        KafkaQuotaSideBySide.createTopic(admin, topic, 1);
        KafkaProducer<byte[], byte[]> producer = producer(Map.of(ProducerConfig.LINGER_MS_CONFIG, 0));
        byte[] payload = new byte[PAYLOAD_BYTES];
        producer.send(new ProducerRecord<>(topic, payload)).get(30, TimeUnit.SECONDS);
        return new Online() {
            @Override
            public long send() throws Exception {
                long start = System.nanoTime();
                producer.send(new ProducerRecord<>(topic, payload)).get(30, TimeUnit.SECONDS);
                return System.nanoTime() - start;
            }

            @Override
            public void close() {
                producer.close(Duration.ofSeconds(10));
            }
        };
    }

    @Override
    public Bulk bulk() throws Exception {
        KafkaQuotaSideBySide.createTopic(admin, bulkTopic, 1);
        KafkaProducer<byte[], byte[]> producer = producer(Map.of(
                ProducerConfig.LINGER_MS_CONFIG, 5,
                ProducerConfig.BATCH_SIZE_CONFIG, 64 * 1024,
                ProducerConfig.BUFFER_MEMORY_CONFIG, 32L * 1024 * 1024));
        producer.send(new ProducerRecord<>(bulkTopic, new byte[PAYLOAD_BYTES])).get(30, TimeUnit.SECONDS);
        return new Bulk() {
            private final AtomicLong acknowledged = new AtomicLong();
            private final AtomicBoolean flooding = new AtomicBoolean();
            private Thread flood;

            @Override
            public void start() {
                flooding.set(true);
                flood = new Thread(this::flood, "adaptive-bulk");
                flood.setDaemon(true);
                flood.start();
            }

            /** send() blocks while the buffer is full, which paces the flood to what gets through. */
            private void flood() {
                byte[] payload = new byte[PAYLOAD_BYTES];
                while (flooding.get()) {
                    producer.send(new ProducerRecord<>(bulkTopic, payload), (metadata, failure) -> {
                        if (failure == null) {
                            acknowledged.incrementAndGet();
                        }
                    });
                }
            }

            @Override
            public void stop() throws Exception {
                flooding.set(false);
                flood.join(60_000);
                producer.flush();
            }

            @Override
            public long acknowledged() {
                return acknowledged.get();
            }

            @Override
            public void close() {
                producer.close(Duration.ofSeconds(10));
            }
        };
    }

    private KafkaProducer<byte[], byte[]> producer(Map<String, Object> overrides) {
        Map<String, Object> config = new HashMap<>(Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG,
                sluice.bootstrap(),
                ProducerConfig.ACKS_CONFIG,
                "all",
                ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG,
                120_000,
                ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG,
                60_000));
        config.putAll(overrides);
        return new KafkaProducer<>(config, new ByteArraySerializer(), new ByteArraySerializer());
    }
}
