package io.sluice.server.it;

import org.apache.pulsar.client.api.Producer;

import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A producer kept saturated from its own thread: at most {@code inFlight} sends outstanding, each
 * acknowledgement recorded with its time so a test can count what was admitted in any window. A
 * flood left running past its test (its producer closed) keeps only its first {@link #KEPT_ERRORS}
 * errors, so it cannot fill the test JVM's heap with failures.
 */
final class Flood implements AutoCloseable {

    private static final int KEPT_ERRORS = 10;

    private final Producer<byte[]> producer;
    private final byte[] payload;
    private final Semaphore window;
    private final AtomicBoolean running = new AtomicBoolean(true);
    private final ConcurrentLinkedQueue<Long> ackTimes = new ConcurrentLinkedQueue<>();
    final AtomicLong failures = new AtomicLong();
    final ConcurrentLinkedQueue<Throwable> errors = new ConcurrentLinkedQueue<>();
    private final Thread thread;

    Flood(Producer<byte[]> producer, int payloadSize, int inFlight) {
        this.producer = producer;
        this.payload = new byte[payloadSize];
        this.window = new Semaphore(inFlight);
        this.thread = new Thread(this::run, "flood-" + producer.getTopic());
        thread.setDaemon(true);
        thread.start();
    }

    private void run() {
        while (running.get()) {
            try {
                if (!window.tryAcquire(100, TimeUnit.MILLISECONDS)) {
                    continue;
                }
            } catch (InterruptedException e) {
                return;
            }
            producer.sendAsync(payload).whenComplete((id, error) -> {
                window.release();
                if (error == null) {
                    ackTimes.add(System.nanoTime());
                } else {
                    if (failures.incrementAndGet() <= KEPT_ERRORS) {
                        errors.add(error);
                    }
                }
            });
        }
    }

    /** Acknowledged sends whose acknowledgement arrived in {@code [fromNanos, toNanos)}. */
    long acknowledgedBetween(long fromNanos, long toNanos) {
        return ackTimes.stream().filter(t -> t >= fromNanos && t < toNanos).count();
    }

    long acknowledged() {
        return ackTimes.size();
    }

    @Override
    public void close() throws InterruptedException {
        running.set(false);
        thread.join();
    }
}
