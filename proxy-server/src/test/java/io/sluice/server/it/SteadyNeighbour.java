package io.sluice.server.it;

import org.apache.pulsar.client.api.Consumer;
import org.apache.pulsar.client.api.Message;
import org.apache.pulsar.client.api.Producer;
import org.apache.pulsar.client.api.PulsarClient;
import org.apache.pulsar.client.api.PulsarClientException;
import org.apache.pulsar.client.api.Schema;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A well-behaved client beside the hostile ones: from its own thread it sends a message every
 * 20 ms through Sluice and receives it back, counting round trips, failures and the slowest one.
 */
final class SteadyNeighbour implements AutoCloseable {

    private final PulsarClient client;
    private final Producer<String> producer;
    private final Consumer<String> consumer;
    private final Thread thread;
    private volatile boolean running = true;
    final AtomicLong roundTrips = new AtomicLong();
    final AtomicLong failures = new AtomicLong();
    final AtomicLong slowestMillis = new AtomicLong();

    SteadyNeighbour(String serviceUrl) throws PulsarClientException {
        String topic = "persistent://public/default/neighbour-" + System.nanoTime();
        client = PulsarClient.builder()
                .serviceUrl(serviceUrl)
                .operationTimeout(20, TimeUnit.SECONDS)
                .build();
        consumer = client.newConsumer(Schema.STRING)
                .topic(topic)
                .subscriptionName("n")
                .subscribe();
        producer = client.newProducer(Schema.STRING)
                .topic(topic)
                .sendTimeout(20, TimeUnit.SECONDS)
                .create();
        thread = new Thread(this::run, "steady-neighbour");
        thread.setDaemon(true);
        thread.start();
    }

    private void run() {
        long i = 0;
        while (running) {
            long start = System.nanoTime();
            try {
                String value = "n-" + i++;
                producer.send(value);
                Message<String> message = consumer.receive(20, TimeUnit.SECONDS);
                if (message == null || !value.equals(message.getValue())) {
                    failures.incrementAndGet();
                } else {
                    consumer.acknowledge(message);
                    roundTrips.incrementAndGet();
                }
                slowestMillis.accumulateAndGet(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start), Math::max);
                Thread.sleep(20);
            } catch (PulsarClientException e) {
                failures.incrementAndGet();
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    /** Round trips so far; waits until at least {@code count} more than {@code since} or fails after 30 s. */
    void awaitRoundTrips(long since, long count) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (roundTrips.get() < since + count) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError(
                        "neighbour stalled at " + roundTrips.get() + " round trips, " + failures.get() + " failures");
            }
            Thread.sleep(20);
        }
    }

    @Override
    public void close() throws Exception {
        running = false;
        thread.join(30_000);
        producer.close();
        consumer.close();
        client.close();
    }
}
