package io.sluice.bench.sidebyside;

import org.apache.pulsar.client.api.Consumer;
import org.apache.pulsar.client.api.Message;
import org.apache.pulsar.client.api.PulsarClient;
import org.apache.pulsar.client.api.PulsarClientException;
import org.apache.pulsar.client.api.SubscriptionInitialPosition;
import org.apache.pulsar.client.api.SubscriptionMode;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A consumer on a client (and so a connection) of its own, as a separate consuming application
 * has, receiving {@link SendStamp}ed messages and recording each one's publish-to-receive latency.
 * Its subscription is non-durable and starts at the latest message: it sees only what is sent
 * after it subscribed and leaves no backlog behind.
 */
final class EndToEndConsumer implements AutoCloseable {

    private final PulsarClient client;
    private final Consumer<byte[]> consumer;
    private final LatencySamples latencies = new LatencySamples();
    private final AtomicLong received = new AtomicLong();
    private final Thread receiver;
    private volatile boolean stopped;

    private EndToEndConsumer(PulsarClient client, Consumer<byte[]> consumer) {
        this.client = client;
        this.consumer = consumer;
        this.receiver = new Thread(this::receive, "e2e-" + consumer.getTopic());
        receiver.setDaemon(true);
        receiver.start();
    }

    /** Subscribes to {@code topics} through {@code serviceUrl} and starts receiving. */
    static EndToEndConsumer subscribe(String serviceUrl, List<String> topics) throws PulsarClientException {
        PulsarClient client = PulsarClients.connect(serviceUrl);
        try {
            Consumer<byte[]> consumer = client.newConsumer()
                    .topics(topics)
                    .subscriptionName("e2e-" + System.nanoTime())
                    .subscriptionMode(SubscriptionMode.NonDurable)
                    .subscriptionInitialPosition(SubscriptionInitialPosition.Latest)
                    .subscribe();
            return new EndToEndConsumer(client, consumer);
        } catch (PulsarClientException e) {
            PulsarClients.closeInBackground(client);
            throw e;
        }
    }

    private void receive() {
        try {
            while (!stopped) {
                Message<byte[]> message = consumer.receive(100, TimeUnit.MILLISECONDS);
                if (message != null) {
                    latencies.add(SendStamp.ageNanos(message.getData()));
                    received.incrementAndGet();
                    consumer.acknowledgeAsync(message);
                }
            }
        } catch (PulsarClientException closed) {
            // The consumer was closed under the loop: the run is over.
        }
    }

    /** Waits until {@code count} messages have arrived, or {@code timeout} has passed. */
    void awaitReceived(long count, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (received.get() < count && System.nanoTime() < deadline) {
            Sleep.millis(20);
        }
    }

    long received() {
        return received.get();
    }

    /** Publish-to-receive latency of every message received. */
    LatencySamples latencies() {
        return latencies;
    }

    @Override
    public void close() {
        stopped = true;
        try {
            receiver.join(1000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        PulsarClients.closeInBackground(client);
    }
}
