package io.sluice.server.it.kafka;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * SIGTERM while a producer streams through Sluice: Sluice answers what is in flight, closes and
 * exits 0; a new Sluice on the same ports learns the brokers at start, so the producer's node
 * ports work again and it carries on, with every record it saw acknowledged kept once and in order.
 */
class KafkaDrainIT {

    @Test
    void sigtermDrainsAndTheProducerCarriesOnThroughTheNextSluice() throws Exception {
        BrokersOnlySluiceReaches brokers = BrokersOnlySluiceReaches.get();
        String topic = KafkaClientsIT.unique("drain");
        int total = 4_000;
        Map<Integer, List<Integer>> acknowledged = new ConcurrentHashMap<>();
        AtomicLong acked = new AtomicLong();
        try (SluiceForKafka sluice =
                SluiceForKafka.start(brokers, brokers.plaintextBootstrap(), "--drain-timeout", "5")) {
            KafkaClients clients = new KafkaClients(sluice.bootstrap());
            clients.createTopics(3, topic);
            List<Future<RecordMetadata>> sends = new ArrayList<>();
            try (KafkaProducer<String, String> producer = clients.producer(
                    ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG,
                    "120000",
                    ProducerConfig.RECONNECT_BACKOFF_MAX_MS_CONFIG,
                    "200")) {
                for (int i = 0; i < total; i++) {
                    int value = i;
                    sends.add(producer.send(
                            new ProducerRecord<>(topic, i % 3, null, Integer.toString(i)), (metadata, error) -> {
                                if (error == null) {
                                    acknowledged
                                            .computeIfAbsent(metadata.partition(), p -> new CopyOnWriteArrayList<>())
                                            .add(value);
                                    acked.incrementAndGet();
                                }
                            }));
                    if (i == total / 4) {
                        KafkaClientsIT.await(() -> acked.get() > total / 8, "records acknowledged before the drain");
                        boolean leaked = sluice.leaked();
                        sluice.process.terminate();
                        assertEquals(0, sluice.process.awaitExit(30), "exit code after SIGTERM");
                        assertFalse(leaked, "Sluice's log reports a leaked buffer");
                        sluice.process.restart();
                    }
                    if (i % 40 == 0) {
                        Thread.sleep(10);
                    }
                }
                for (Future<RecordMetadata> send : sends) {
                    try {
                        send.get(180, TimeUnit.SECONDS);
                    } catch (ExecutionException e) {
                        // A record the producer gave up on is not acknowledged: checked below.
                    }
                }
            }
            assertEquals(total, acked.get(), "every record acknowledged in the end");
            Map<Integer, List<Integer>> stored = new TreeMap<>();
            for (ConsumerRecord<String, String> record :
                    KafkaClientsIT.consumeAll(clients.consumer(), List.of(topic), total)) {
                stored.computeIfAbsent(record.partition(), p -> new ArrayList<>())
                        .add(Integer.parseInt(record.value()));
            }
            for (Map.Entry<Integer, List<Integer>> partition : stored.entrySet()) {
                List<Integer> values = partition.getValue();
                assertEquals(
                        values.stream().sorted().toList(), values, "partition " + partition.getKey() + " in order");
                assertEquals(
                        new HashSet<>(values).size(), values.size(), "duplicates in partition " + partition.getKey());
                assertTrue(values.containsAll(acknowledged.get(partition.getKey())));
            }
            assertFalse(sluice.leaked(), "Sluice's log reports a leaked buffer");
        }
    }
}
