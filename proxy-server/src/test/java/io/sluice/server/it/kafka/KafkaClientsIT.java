package io.sluice.server.it.kafka;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

/** Stock Java clients (the pinned kafka-clients 4.x) through Sluice to a real three-broker cluster. */
class KafkaClientsIT {

    private static BrokersOnlySluiceReaches brokers;
    private static SluiceForKafka sluice;
    private static KafkaClients clients;

    @BeforeAll
    static void start() {
        brokers = BrokersOnlySluiceReaches.get();
        sluice = SluiceForKafka.start(brokers, brokers.plaintextBootstrap());
        clients = new KafkaClients(sluice.bootstrap());
    }

    @AfterAll
    static void stop() {
        if (sluice != null) {
            boolean leaked = sluice.leaked();
            sluice.close();
            assertFalse(leaked, "Sluice's log reports a leaked buffer");
        }
    }

    @Test
    void tenThousandRecordsArriveInOrderPerPartition() throws Exception {
        String topic = "ordered-" + System.nanoTime();
        clients.createTopics(3, topic);
        int total = 10_000;
        try (KafkaProducer<String, String> producer = clients.producer()) {
            List<Future<?>> sends = new ArrayList<>();
            for (int i = 0; i < total; i++) {
                sends.add(producer.send(new ProducerRecord<>(topic, i % 3, "key-" + (i % 3), Integer.toString(i))));
            }
            for (Future<?> send : sends) {
                send.get(60, TimeUnit.SECONDS);
            }
        }
        Map<Integer, List<Integer>> byPartition = new HashMap<>();
        try (KafkaConsumer<String, String> consumer = clients.consumer("group.id", "ordered-" + System.nanoTime())) {
            consumer.subscribe(List.of(topic));
            int received = 0;
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (received < total && System.nanoTime() < deadline) {
                for (ConsumerRecord<String, String> record : consumer.poll(Duration.ofMillis(500))) {
                    byPartition.computeIfAbsent(record.partition(), p -> new ArrayList<>()).add(Integer.parseInt(record.value()));
                    received++;
                }
            }
            assertEquals(total, received);
        }
        for (int partition = 0; partition < 3; partition++) {
            List<Integer> values = byPartition.get(partition);
            for (int i = 0; i < values.size(); i++) {
                assertEquals(partition + 3 * i, values.get(i), "partition " + partition + ", record " + i);
            }
        }
    }
}
