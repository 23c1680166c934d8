package io.sluice.bench.sidebyside;

import org.apache.pulsar.client.api.Producer;
import org.apache.pulsar.client.api.PulsarClient;

import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The adaptive scenario through Sluice in front of a Pulsar broker: online sends 1 KiB unbatched
 * and synchronously; bulk floods 1 KiB messages in the client's default batches, 10,000 in flight,
 * each on a client (a connection) of its own.
 */
final class PulsarAdaptiveWorkload implements AdaptiveWorkload {

    private static final int PAYLOAD_BYTES = 1024;
    private static final int BULK_IN_FLIGHT = 10_000;

    private final SluiceContender sluice;
    private final String bulkTopic = "persistent://public/default/adaptive-bulk-" + System.nanoTime();

    PulsarAdaptiveWorkload(SluiceContender sluice) {
        this.sluice = sluice;
    }

    @Override
    public String protocol() {
        return "Pulsar";
    }

    @Override
    public TopicLimits sluice() {
        return sluice;
    }

    @Override
    public String bulkTopic() {
        return bulkTopic;
    }

    @Override
    public Online online() throws Exception {
        PulsarClient client = PulsarClients.connect(sluice.contender().serviceUrl());
        Producer<byte[]> producer = client.newProducer()
                .topic("persistent://public/default/adaptive-online-" + System.nanoTime())
                .enableBatching(false)
                .sendTimeout(30, TimeUnit.SECONDS)
                .create();
        byte[] payload = new byte[PAYLOAD_BYTES];
        producer.send(payload);
        return new Online() {
            @Override
            public long send() throws Exception {
                long start = System.nanoTime();
                producer.send(payload);
                return System.nanoTime() - start;
            }

            @Override
            public void close() throws Exception {
                client.closeAsync().get(10, TimeUnit.SECONDS);
            }
        };
    }

    @Override
    public Bulk bulk() throws Exception {
        PulsarClient client = PulsarClients.connect(sluice.contender().serviceUrl());
        Producer<byte[]> producer = client.newProducer()
                .topic(bulkTopic)
                .sendTimeout(0, TimeUnit.SECONDS)
                .maxPendingMessages(BULK_IN_FLIGHT)
                .blockIfQueueFull(true)
                .create();
        producer.send(new byte[PAYLOAD_BYTES]);
        return new Bulk() {
            private final AtomicLong acknowledged = new AtomicLong();
            private final AtomicBoolean flooding = new AtomicBoolean();
            private final Semaphore window = new Semaphore(BULK_IN_FLIGHT);
            private Thread flood;

            @Override
            public void start() {
                flooding.set(true);
                flood = new Thread(this::flood, "adaptive-bulk");
                flood.setDaemon(true);
                flood.start();
            }

            private void flood() {
                byte[] payload = new byte[PAYLOAD_BYTES];
                while (flooding.get()) {
                    try {
                        if (!window.tryAcquire(100, TimeUnit.MILLISECONDS)) {
                            continue;
                        }
                    } catch (InterruptedException e) {
                        return;
                    }
                    producer.sendAsync(payload).whenComplete((id, failure) -> {
                        window.release();
                        if (failure == null) {
                            acknowledged.incrementAndGet();
                        }
                    });
                }
            }

            @Override
            public void stop() throws Exception {
                flooding.set(false);
                flood.join(10_000);
                // What a limit holds still drains at its rate; give it time, then go on regardless.
                if (window.tryAcquire(BULK_IN_FLIGHT, 60, TimeUnit.SECONDS)) {
                    window.release(BULK_IN_FLIGHT);
                }
            }

            @Override
            public long acknowledged() {
                return acknowledged.get();
            }

            @Override
            public void close() throws Exception {
                client.closeAsync().get(10, TimeUnit.SECONDS);
            }
        };
    }
}
