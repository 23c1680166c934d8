package io.sluice.server.it;

import io.sluice.testkit.pulsar.PulsarBroker;
import org.apache.pulsar.client.api.Message;
import org.apache.pulsar.client.api.MessageId;
import org.apache.pulsar.client.api.Producer;
import org.apache.pulsar.client.api.PulsarClient;
import org.apache.pulsar.client.api.Reader;
import org.apache.pulsar.client.api.Schema;
import org.junit.jupiter.api.Test;

import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentSkipListSet;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A broker restart under load: clients recover through Sluice and no acknowledged message is lost. */
class BrokerRestartIT {

    private static final PulsarBroker broker = PulsarBroker.shared();

    @Test
    void clientsRecoverThroughSluiceAndNoAcknowledgedMessageIsLost() throws Exception {
        String topic = "persistent://public/default/restart-" + System.nanoTime();
        Set<Integer> acknowledged = new ConcurrentSkipListSet<>();
        try (RunningSluice sluice = RunningSluice.frontProxy(broker);
                PulsarClient client = PulsarClient.builder()
                        .serviceUrl(sluice.serviceUrl)
                        .operationTimeout(30, TimeUnit.SECONDS)
                        .build()) {
            Producer<String> producer = client.newProducer(Schema.STRING)
                    .topic(topic)
                    .sendTimeout(0, TimeUnit.SECONDS)
                    .blockIfQueueFull(true)
                    .create();
            AtomicBoolean running = new AtomicBoolean(true);
            Thread sender = new Thread(
                    () -> {
                        int i = 0;
                        while (running.get()) {
                            int seq = i++;
                            producer.sendAsync("m-" + seq).thenRun(() -> acknowledged.add(seq));
                            sleepMillis(2);
                        }
                    },
                    "restart-sender");
            sender.start();
            waitFor(() -> acknowledged.size() >= 500, 30);

            broker.restart();

            int atRestart = acknowledged.size();
            waitFor(() -> acknowledged.size() >= atRestart + 500, 60);
            running.set(false);
            sender.join();
            producer.flush();
            producer.close();

            Set<Integer> stored = new TreeSet<>();
            try (Reader<String> reader = client.newReader(Schema.STRING)
                    .topic(topic)
                    .startMessageId(MessageId.earliest)
                    .create()) {
                while (reader.hasMessageAvailable()) {
                    Message<String> message = reader.readNext(10, TimeUnit.SECONDS);
                    stored.add(Integer.parseInt(message.getValue().substring(2)));
                }
            }
            Set<Integer> lost = new TreeSet<>(acknowledged);
            lost.removeAll(stored);
            assertEquals(Set.of(), lost, "acknowledged but not in the topic");
            assertTrue(acknowledged.size() > atRestart, "publishing resumed after the restart");
        }
    }

    private static void waitFor(java.util.function.BooleanSupplier condition, int seconds) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("condition not met within " + seconds + " s");
            }
            Thread.sleep(50);
        }
    }

    private static void sleepMillis(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
