package io.sluice.server.it;

import org.apache.pulsar.client.api.Producer;
import org.apache.pulsar.client.api.PulsarClientException;

import java.nio.charset.StandardCharsets;
import java.util.Set;
import java.util.concurrent.ConcurrentSkipListSet;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Sends payloads {@code "<name>:<seq>"} with seq 0, 1, 2... from its own thread, at most
 * {@code inFlight} outstanding, and records which ones the client saw acknowledged: the ground
 * truth a {@link TopicAudit} checks the topic's content against.
 */
final class SequencedProducer implements AutoCloseable {

    final String name;
    final Producer<byte[]> producer;
    final Set<Long> acknowledged = new ConcurrentSkipListSet<>();
    final AtomicLong sent = new AtomicLong();
    final AtomicLong failed = new AtomicLong();
    private final Semaphore window;
    private final long pauseMicros;
    private final Thread thread;
    private volatile boolean running = true;

    SequencedProducer(String name, Producer<byte[]> producer, int inFlight, long pauseMicros) {
        this.name = name;
        this.producer = producer;
        this.window = new Semaphore(inFlight);
        this.pauseMicros = pauseMicros;
        this.thread = new Thread(this::run, "sequenced-" + name);
        thread.setDaemon(true);
        thread.start();
    }

    private void run() {
        long seq = 0;
        while (running) {
            try {
                if (!window.tryAcquire(50, TimeUnit.MILLISECONDS)) {
                    continue;
                }
                long mine = seq++;
                sent.incrementAndGet();
                producer.sendAsync((name + ":" + mine).getBytes(StandardCharsets.UTF_8))
                        .whenComplete((id, error) -> {
                            window.release();
                            if (error == null) {
                                acknowledged.add(mine);
                            } else {
                                failed.incrementAndGet();
                            }
                        });
                if (pauseMicros > 0) {
                    TimeUnit.MICROSECONDS.sleep(pauseMicros);
                }
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    /** Waits until {@code count} more sends than {@code since} are acknowledged, or fails after {@code seconds}. */
    void awaitAcknowledged(long since, long count, int seconds) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        while (acknowledged.size() < since + count) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError(
                        name + " stalled at " + acknowledged.size() + " acknowledged, " + failed.get() + " failed");
            }
            Thread.sleep(20);
        }
    }

    /** Stops sending and waits for what is in flight to be answered (success or failure). */
    void stop() throws InterruptedException, PulsarClientException {
        running = false;
        thread.join();
        producer.flush();
    }

    @Override
    public void close() throws Exception {
        running = false;
        thread.join();
        producer.close();
    }
}
