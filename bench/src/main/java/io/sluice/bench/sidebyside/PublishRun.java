package io.sluice.bench.sidebyside;

import org.apache.pulsar.client.api.Producer;
import org.apache.pulsar.client.api.PulsarClient;
import org.apache.pulsar.client.api.PulsarClientException;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A {@link Workload} sent for a fixed time: its producers on one client (one connection, as an
 * application's producers share theirs), each to its own topic and as fast as its in-flight bound
 * allows; every send's latency is from {@code sendAsync} to the broker's receipt. With a consumer
 * in the workload, an {@link EndToEndConsumer} through the same service URL also times every
 * message from publish to receipt.
 */
final class PublishRun {

    /** How long the consumer may trail the last receipt before the run gives up on the rest. */
    private static final Duration CONSUMER_GRACE = Duration.ofSeconds(10);

    /**
     * What a run achieved; {@code failed} counts sends that completed with an error; {@code timeline}
     * counts all producers' completions, {@code producerTimelines} each producer's; {@code received}
     * and {@code endToEnd} are the consumer's (0 and empty without one).
     */
    record Result(
            long completed,
            long failed,
            double seconds,
            LatencySamples latencies,
            RateTimeline timeline,
            List<RateTimeline> producerTimelines,
            long received,
            LatencySamples endToEnd)
            implements ProfiledRun.Outcome {
        @Override
        public double messagesPerSecond() {
            return completed / seconds;
        }
    }

    /** What every producer's sends add to, from the client's threads. */
    private record Tally(LatencySamples latencies, RateTimeline timeline, AtomicLong completed, AtomicLong failed) {}

    private PublishRun() {}

    /** Runs {@code workload} on {@code topic}, or with several producers on {@code topic-0, topic-1, ...}. */
    static Result run(String serviceUrl, String topic, Workload workload, double seconds) throws PulsarClientException {
        List<String> topics = topics(topic, workload.producers());
        PulsarClient client = PulsarClients.connect(serviceUrl);
        // A null consumer is skipped; the client's close closes its producers.
        try (EndToEndConsumer consumer = workload.consumer() ? EndToEndConsumer.subscribe(serviceUrl, topics) : null) {
            List<Producer<byte[]>> producers = new ArrayList<>();
            for (String each : topics) {
                producers.add(client.newProducer()
                        .topic(each)
                        .enableBatching(workload.batching())
                        .maxPendingMessages(Math.max(workload.inFlight(), 1))
                        .blockIfQueueFull(true)
                        .sendTimeout(0, TimeUnit.SECONDS)
                        .create());
            }
            Result sent = send(producers, workload, seconds);
            if (consumer == null) {
                return sent;
            }
            consumer.awaitReceived(sent.completed(), CONSUMER_GRACE);
            return new Result(
                    sent.completed(),
                    sent.failed(),
                    sent.seconds(),
                    sent.latencies(),
                    sent.timeline(),
                    sent.producerTimelines(),
                    consumer.received(),
                    consumer.latencies());
        } finally {
            PulsarClients.closeInBackground(client);
        }
    }

    private static List<String> topics(String topic, int producers) {
        if (producers == 1) {
            return List.of(topic);
        }
        List<String> topics = new ArrayList<>();
        for (int i = 0; i < producers; i++) {
            topics.add(topic + "-" + i);
        }
        return topics;
    }

    /** Each producer sends from a thread of its own, as independent parts of an application would. */
    private static Result send(List<Producer<byte[]>> producers, Workload workload, double seconds) {
        long start = System.nanoTime();
        long end = start + (long) (seconds * 1e9);
        // Slots of a quarter second; sends held by a throttle may complete well after the end.
        Tally tally = new Tally(
                new LatencySamples(),
                new RateTimeline(start, 0.25, seconds * 2 + 10),
                new AtomicLong(),
                new AtomicLong());
        List<Thread> senders = new ArrayList<>();
        List<RateTimeline> producerTimelines = new ArrayList<>();
        for (Producer<byte[]> producer : producers) {
            RateTimeline own = new RateTimeline(start, 0.25, seconds * 2 + 10);
            producerTimelines.add(own);
            Thread sender =
                    new Thread(() -> sendUntil(end, producer, workload, tally, own), "send-" + producer.getTopic());
            sender.start();
            senders.add(sender);
        }
        for (Thread sender : senders) {
            try {
                sender.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted", e);
            }
        }
        double elapsed = (System.nanoTime() - start) / 1e9;
        return new Result(
                tally.completed().get(),
                tally.failed().get(),
                elapsed,
                tally.latencies(),
                tally.timeline(),
                producerTimelines,
                0,
                new LatencySamples());
    }

    /** Keeps the workload's sends in flight until {@code end}, then waits for the last ones. */
    private static void sendUntil(
            long end, Producer<byte[]> producer, Workload workload, Tally tally, RateTimeline own) {
        // A consumer needs each payload's own send time; otherwise one shared payload saves the garbage.
        byte[] shared = new byte[workload.payloadBytes()];
        Semaphore window = new Semaphore(workload.inFlight());
        while (System.nanoTime() < end) {
            window.acquireUninterruptibly();
            byte[] payload = workload.consumer() ? SendStamp.payload(workload.payloadBytes()) : shared;
            long sentAt = System.nanoTime();
            producer.sendAsync(payload).whenComplete((id, error) -> {
                if (error == null) {
                    long now = System.nanoTime();
                    tally.latencies().add(now - sentAt);
                    tally.timeline().record(now);
                    own.record(now);
                    tally.completed().incrementAndGet();
                } else {
                    tally.failed().incrementAndGet();
                }
                window.release();
            });
        }
        producer.flushAsync();
        window.acquireUninterruptibly(workload.inFlight());
    }
}
