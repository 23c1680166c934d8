package io.sluice.server.it.kafka;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.stream.IntStream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

/**
 * Kafka clients that would get traffic past a limit, or lose it, through a real {@code sluice.jar}
 * in front of the real KRaft cluster; what reached the brokers is read back from them.
 */
class KafkaBypassIT {

    /** The sum of {@code series}' samples for {@code topic} in Sluice's metrics. */
    private static double topicSample(SluiceForKafka sluice, String series, String topic) {
        return sluice.metrics()
                .lines()
                .filter(line -> line.startsWith(series + "{") && line.contains("topic=\"" + topic + "\""))
                .mapToDouble(line -> Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1)))
                .sum();
    }

    @Test
    void sigtermForwardsHeldAcksZeroBatchesBeforeSluiceExits() throws Exception {
        BrokersOnlySluiceReaches brokers = BrokersOnlySluiceReaches.get();
        String topic = KafkaClientsIT.unique("drain-held");
        int total = 600;
        try (SluiceForKafka sluice =
                SluiceForKafka.start(brokers, brokers.plaintextBootstrap(), "--drain-timeout", "30")) {
            KafkaClients clients = new KafkaClients(sluice.bootstrap());
            clients.createTopics(1, topic);
            sluice.limit(topic, "{\"publish\": {\"messagesPerSecond\": 100}, \"onExceed\": \"delay\"}");
            try (KafkaProducer<String, String> producer = clients.producer(
                    ProducerConfig.ACKS_CONFIG, "0",
                    ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "false",
                    ProducerConfig.BATCH_SIZE_CONFIG, "512")) {
                for (int i = 0; i < total; i++) {
                    producer.send(new ProducerRecord<>(topic, Integer.toString(i)));
                }
                producer.flush();
                // Every record is in Sluice, most of them held: 100 a second leaves about 500 to hold.
                KafkaClientsIT.await(
                        () -> topicSample(sluice, "sluice_publish_messages_total", topic)
                                        + topicSample(sluice, "sluice_held_messages", topic)
                                >= total,
                        "every record reached Sluice");
                double held = topicSample(sluice, "sluice_held_messages", topic);
                boolean leaked = sluice.leaked();
                long start = System.nanoTime();
                sluice.process.terminate();
                assertEquals(0, sluice.process.awaitExit(60), "exit code after SIGTERM");
                System.out.printf(
                        "[kafka-bypass] drain: %.0f held acks=0 records at SIGTERM, Sluice exited after %.1f s%n",
                        held, (System.nanoTime() - start) / 1e9);
                assertFalse(leaked, "Sluice's log reports a leaked buffer");
            }
            sluice.process.restart();
            List<ConsumerRecord<String, String>> read =
                    KafkaClientsIT.consumeAll(clients.consumer(), List.of(topic), total);
            System.out.printf(
                    "[kafka-bypass] drain: %d of %d acks=0 records reached the brokers%n", read.size(), total);
            assertEquals(
                    IntStream.range(0, total).mapToObj(Integer::toString).toList(),
                    read.stream().map(ConsumerRecord::value).toList(),
                    "every held record reached the broker, once and in order");
            assertFalse(sluice.leaked(), "Sluice's log reports a leaked buffer");
        }
    }
}
