package io.sluice.bench.sidebyside;

import org.apache.pulsar.client.api.Producer;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * Sends at a fixed total rate, the producers taking turns: each send leaves when it is due
 * whether or not earlier ones have completed, as sends of independent clients do (an open loop,
 * unlike {@link PublishRun}'s in-flight bound). Successful sends' latencies, from
 * {@code sendAsync} to the broker's receipt, go to the given samples.
 *
 * @param sends one future per send, completing once its latency is recorded
 */
record PacedSends(List<CompletableFuture<?>> sends) {

    /** Sends {@code perSecond * seconds} messages of {@code payloadBytes} and returns without waiting for them. */
    static PacedSends send(
            List<Producer<byte[]>> producers,
            double perSecond,
            double seconds,
            int payloadBytes,
            LatencySamples latencies) {
        byte[] payload = new byte[payloadBytes];
        int total = (int) (perSecond * seconds);
        double intervalNanos = 1e9 / perSecond;
        List<CompletableFuture<?>> sends = new ArrayList<>(total);
        long start = System.nanoTime();
        for (int i = 0; i < total; i++) {
            long wait = start + (long) (i * intervalNanos) - System.nanoTime();
            if (wait > 0) {
                Sleep.nanos(wait);
            }
            long sentAt = System.nanoTime();
            sends.add(producers
                    .get(i % producers.size())
                    .sendAsync(payload)
                    .thenRun(() -> latencies.add(System.nanoTime() - sentAt)));
        }
        return new PacedSends(sends);
    }

    int sent() {
        return sends.size();
    }

    /** Waits up to {@code timeout} in all for the sends; returns how many completed without an error. */
    long awaitCompleted(Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        long completed = 0;
        for (CompletableFuture<?> send : sends) {
            try {
                send.get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
                completed++;
            } catch (Exception failedOrTimedOut) {
                // Counted as not completed.
            }
        }
        return completed;
    }
}
