package io.sluice.server.it;

import java.util.List;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Senders (a producer to one topic, of either protocol) each offering a rate of their own, set and
 * changed by the test: every 10 ms each sends what its rate allows, with at most a bounded number
 * of sends unanswered. What it could not send is skipped, not owed, so a changed rate applies at
 * once (an open-loop load with a bounded client queue). Failed sends are counted.
 */
public final class PacedLoad implements AutoCloseable {

    /** One send of a lane: completes when the broker answered it, exceptionally when it failed. */
    @FunctionalInterface
    public interface Send {

        CompletionStage<?> send();
    }

    public final AtomicLong failures = new AtomicLong();
    public final ConcurrentLinkedQueue<Throwable> errors = new ConcurrentLinkedQueue<>();

    private final List<Lane> lanes;
    private final int maxOutstanding;
    private final ScheduledExecutorService ticker = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "paced-load");
        t.setDaemon(true);
        return t;
    });
    private long lastTick = System.nanoTime();

    private static final class Lane {
        final Send send;
        final AtomicInteger outstanding = new AtomicInteger();
        volatile double rate;
        double credit;

        Lane(Send send) {
            this.send = send;
        }
    }

    /** @param maxOutstanding the most sends a lane leaves unanswered */
    public PacedLoad(List<? extends Send> senders, int maxOutstanding) {
        this.lanes = senders.stream().map(Lane::new).toList();
        this.maxOutstanding = maxOutstanding;
        ticker.scheduleAtFixedRate(this::tick, 10, 10, TimeUnit.MILLISECONDS);
    }

    /** Sets each sender's offered rate, messages per second. */
    public void offer(double... rates) {
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
                if (lane.outstanding.get() >= maxOutstanding) {
                    lane.credit = 0;
                    break;
                }
                lane.credit--;
                lane.outstanding.incrementAndGet();
                lane.send.send().whenComplete((result, error) -> {
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
