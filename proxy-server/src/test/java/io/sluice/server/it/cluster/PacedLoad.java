package io.sluice.server.it.cluster;

import org.apache.pulsar.client.api.Producer;

import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Producers each offering a rate of their own, set and changed by the test: every 10 ms each sends
 * what its rate allows, with at most {@link #MAX_OUTSTANDING} sends unanswered. What it could not
 * send is skipped, not owed, so a changed rate applies at once (an open-loop load with a bounded
 * client queue). Failed sends are counted.
 */
final class PacedLoad implements AutoCloseable {

    static final int MAX_OUTSTANDING = 200;

    private final List<Lane> lanes;
    private final ScheduledExecutorService ticker = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "paced-load");
        t.setDaemon(true);
        return t;
    });
    final AtomicLong failures = new AtomicLong();
    final ConcurrentLinkedQueue<Throwable> errors = new ConcurrentLinkedQueue<>();
    private final byte[] payload = new byte[100];
    private long lastTick = System.nanoTime();

    private static final class Lane {
        final Producer<byte[]> producer;
        final AtomicInteger outstanding = new AtomicInteger();
        volatile double rate;
        double credit;

        Lane(Producer<byte[]> producer) {
            this.producer = producer;
        }
    }

    PacedLoad(List<Producer<byte[]>> producers) {
        this.lanes = producers.stream().map(Lane::new).toList();
        ticker.scheduleAtFixedRate(this::tick, 10, 10, TimeUnit.MILLISECONDS);
    }

    /** Sets each producer's offered rate, messages per second. */
    void offer(double... rates) {
        for (int i = 0; i < rates.length; i++) {
            lanes.get(i).rate = rates[i];
        }
    }

    private void tick() {
        long now = System.nanoTime();
        double seconds = Math.min((now - lastTick) / 1e9, 0.1);
        lastTick = now;
        for (Lane lane : lanes) {
            lane.credit += lane.rate * seconds;
            while (lane.credit >= 1) {
                if (lane.outstanding.get() >= MAX_OUTSTANDING) {
                    lane.credit = 0;
                    break;
                }
                lane.credit--;
                lane.outstanding.incrementAndGet();
                lane.producer.sendAsync(payload).whenComplete((id, error) -> {
                    lane.outstanding.decrementAndGet();
                    if (error != null) {
                        failures.incrementAndGet();
                        errors.add(error);
                    }
                });
            }
        }
    }

    @Override
    public void close() {
        ticker.shutdownNow();
    }
}
