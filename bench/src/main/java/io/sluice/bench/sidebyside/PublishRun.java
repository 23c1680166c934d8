package io.sluice.bench.sidebyside;

import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.pulsar.client.api.Producer;
import org.apache.pulsar.client.api.PulsarClient;
import org.apache.pulsar.client.api.PulsarClientException;

/**
 * One producer sending a {@link Workload} to one topic for a fixed time, as fast as its in-flight
 * bound allows; every send's latency is from {@code sendAsync} to the broker's receipt.
 */
final class PublishRun {

    /** What a run achieved; {@code failed} counts sends that completed with an error. */
    record Result(long completed, long failed, double seconds, LatencySamples latencies, RateTimeline timeline) {
        double messagesPerSecond() {
            return completed / seconds;
        }
    }

    private PublishRun() {
    }

    static Result run(String serviceUrl, String topic, Workload workload, double seconds) throws PulsarClientException {
        try (PulsarClient client = PulsarClient.builder().serviceUrl(serviceUrl)
                .operationTimeout(30, TimeUnit.SECONDS).build();
             Producer<byte[]> producer = client.newProducer().topic(topic)
                     .enableBatching(workload.batching())
                     .maxPendingMessages(Math.max(workload.inFlight(), 1))
                     .blockIfQueueFull(true)
                     .sendTimeout(0, TimeUnit.SECONDS)
                     .create()) {
            return send(producer, workload, seconds);
        }
    }

    private static Result send(Producer<byte[]> producer, Workload workload, double seconds)
            throws PulsarClientException {
        byte[] payload = new byte[workload.payloadBytes()];
        Semaphore window = new Semaphore(workload.inFlight());
        LatencySamples latencies = new LatencySamples();
        AtomicLong completed = new AtomicLong();
        AtomicLong failed = new AtomicLong();
        long start = System.nanoTime();
        long end = start + (long) (seconds * 1e9);
        // Slots of a quarter second; sends held by a throttle may complete well after the end.
        RateTimeline timeline = new RateTimeline(start, 0.25, seconds * 2 + 10);
        while (System.nanoTime() < end) {
            window.acquireUninterruptibly();
            long sentAt = System.nanoTime();
            producer.sendAsync(payload).whenComplete((id, error) -> {
                if (error == null) {
                    long now = System.nanoTime();
                    latencies.add(now - sentAt);
                    timeline.record(now);
                    completed.incrementAndGet();
                } else {
                    failed.incrementAndGet();
                }
                window.release();
            });
        }
        producer.flush();
        window.acquireUninterruptibly(workload.inFlight());
        double elapsed = (System.nanoTime() - start) / 1e9;
        return new Result(completed.get(), failed.get(), elapsed, latencies, timeline);
    }
}
