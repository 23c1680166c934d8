package io.sluice.server.it.kafka;

import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.protocol.Errors;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.stream.IntStream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Kafka clients that would get traffic past a limit, or lose it, through a real {@code sluice.jar}
 * in front of the real KRaft cluster; what reached the brokers is read back from them.
 */
class KafkaBypassIT {

    private static boolean accepts(int port) {
        try (java.net.Socket socket = new java.net.Socket("127.0.0.1", port)) {
            return true;
        } catch (java.io.IOException e) {
            return false;
        }
    }

    /** The sum of {@code series}' samples for {@code topic} in Sluice's metrics. */
    private static double topicSample(SluiceForKafka sluice, String series, String topic) {
        return sluice.metrics()
                .lines()
                .filter(line -> line.startsWith(series + "{") && line.contains("topic=\"" + topic + "\""))
                .mapToDouble(line -> Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1)))
                .sum();
    }

    @Test
    void aFreshSluiceMetersProduceByATopicIdThatOnlyAnotherSluiceSaw() throws Exception {
        BrokersOnlySluiceReaches brokers = BrokersOnlySluiceReaches.get();
        String topic = KafkaClientsIT.unique("by-id");
        try (SluiceForKafka first = SluiceForKafka.start(brokers, brokers.plaintextBootstrap());
                SluiceForKafka fresh = SluiceForKafka.start(brokers, brokers.plaintextBootstrap())) {
            KafkaClients viaFirst = new KafkaClients(first.bootstrap());
            viaFirst.createTopics(1, topic);
            TopicDescription description = viaFirst.describe(topic);
            fresh.limit(topic, "{\"publish\": {\"messagesPerSecond\": 100}, \"onExceed\": \"reject\"}");
            int leader = description.partitions().get(0).leader().id();
            int accepted = 0;
            long start = System.nanoTime();
            // The fresh Sluice knows the nodes (it asks the cluster at start) but no topic id.
            int nodePort = fresh.nodePortBase + leader;
            KafkaClientsIT.await(() -> accepts(nodePort), "the fresh Sluice's port for node " + leader);
            try (RawKafkaClient raw = new RawKafkaClient(nodePort)) {
                for (int request = 0; request < 10; request++) {
                    short error = raw.produceById(description.topicId(), 0, 100);
                    if (error == Errors.NONE.code()) {
                        accepted += 100;
                    } else {
                        assertEquals(
                                Errors.POLICY_VIOLATION.code(),
                                error,
                                Errors.forCode(error).name());
                    }
                }
            }
            double seconds = (System.nanoTime() - start) / 1e9;
            System.out.printf(
                    "[kafka-bypass] topic id: %d of 1000 records sent by id accepted in %.1f s under 100 records/s%n",
                    accepted, seconds);
            // The burst (100), the rate over the time taken, and one batch of 100 that a bucket with room admits whole.
            assertTrue(accepted >= 100, "the burst was admitted: " + accepted);
            assertTrue(accepted <= 200 + 100 * seconds, accepted + " records accepted in " + seconds + " s");
            assertFalse(fresh.leaked(), "Sluice's log reports a leaked buffer");
        }
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
