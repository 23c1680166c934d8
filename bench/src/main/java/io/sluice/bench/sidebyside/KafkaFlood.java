package io.sluice.bench.sidebyside;

import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.serialization.ByteArraySerializer;

import java.time.Duration;
import java.util.Properties;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * One stock Java producer offering a topic far more than its limit, in a thread of its own, until
 * closed: it keeps a fixed number of records outstanding, so it sends as fast as it is answered.
 * Acknowledgements are counted over time from the start.
 */
final class KafkaFlood implements AutoCloseable {

    private final KafkaProducer<byte[], byte[]> producer;
    private final RateTimeline acknowledged;
    private final AtomicLong failed = new AtomicLong();
    private final AtomicBoolean stop = new AtomicBoolean();
    private final Thread sender;
    private final long startNanos;

    private KafkaFlood(
            KafkaProducer<byte[], byte[]> producer, long startNanos, RateTimeline acknowledged, Thread sender) {
        this.producer = producer;
        this.startNanos = startNanos;
        this.acknowledged = acknowledged;
        this.sender = sender;
    }

    /**
     * Starts flooding {@code topic} through {@code bootstrap} with records of {@code recordBytes},
     * {@code inFlight} of them outstanding, counting acknowledgements for up to {@code maxSeconds}.
     */
    static KafkaFlood start(
            String bootstrap, String topic, int lingerMillis, int recordBytes, int inFlight, double maxSeconds) {
        Properties props = new Properties();
        props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        props.put(ProducerConfig.LINGER_MS_CONFIG, Integer.toString(lingerMillis));
        props.put(ProducerConfig.ACKS_CONFIG, "all");
        props.put(ProducerConfig.BUFFER_MEMORY_CONFIG, Integer.toString(64 << 20));
        KafkaProducer<byte[], byte[]> producer =
                new KafkaProducer<>(props, new ByteArraySerializer(), new ByteArraySerializer());
        producer.partitionsFor(topic);
        KafkaFlood[] flood = new KafkaFlood[1];
        long startNanos = System.nanoTime();
        RateTimeline timeline = new RateTimeline(startNanos, 0.25, maxSeconds);
        Thread sender = new Thread(() -> flood[0].send(topic, recordBytes, inFlight), "flood-" + topic);
        sender.setDaemon(true);
        flood[0] = new KafkaFlood(producer, startNanos, timeline, sender);
        sender.start();
        return flood[0];
    }

    private void send(String topic, int recordBytes, int inFlight) {
        Semaphore window = new Semaphore(inFlight);
        byte[] value = new byte[recordBytes];
        try {
            while (!stop.get()) {
                if (window.tryAcquire(100, TimeUnit.MILLISECONDS)) {
                    producer.send(new ProducerRecord<>(topic, value), (metadata, error) -> {
                        if (error == null) {
                            acknowledged.record(System.nanoTime());
                        } else if (!stop.get()) {
                            failed.incrementAndGet();
                        }
                        window.release();
                    });
                }
            }
        } catch (InterruptedException | KafkaException e) {
            // Told to stop; the producer closes under the sender.
        }
    }

    /** When the flood started, {@link System#nanoTime()}. */
    long startNanos() {
        return startNanos;
    }

    /** Acknowledged records per 0.25 s since the start. */
    RateTimeline acknowledged() {
        return acknowledged;
    }

    /** Records the producer failed before the flood was stopped. */
    long failed() {
        return failed.get();
    }

    /** Stops sending and drops what is still outstanding: a limited topic's backlog would take minutes. */
    @Override
    public void close() throws InterruptedException {
        stop.set(true);
        sender.join(5_000);
        producer.close(Duration.ZERO);
    }
}
