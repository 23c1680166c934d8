package io.sluice.server.it.kafka;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaShareConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A real share group (KIP-932) on the KRaft cluster through a real {@code sluice.jar}: a dispatch
 * limit holds for a {@link KafkaShareConsumer} as for a consumer, and every record is delivered
 * once, none left locked or delivered twice by Sluice's metering.
 */
class KafkaShareGroupIT {

    private static final int RECORDS = 300;

    @Test
    void aShareConsumerIsHeldToItsTopicsDispatchLimitAndGetsEveryRecordOnce() throws Exception {
        BrokersOnlySluiceReaches brokers = BrokersOnlySluiceReaches.get();
        String topic = KafkaClientsIT.unique("share");
        String group = KafkaClientsIT.unique("share-group");
        try (SluiceForKafka sluice = SluiceForKafka.start(brokers, brokers.plaintextBootstrap())) {
            KafkaClients clients = new KafkaClients(sluice.bootstrap());
            clients.createTopics(1, topic);
            try (Admin admin = clients.admin()) {
                admin.incrementalAlterConfigs(Map.of(
                                new ConfigResource(ConfigResource.Type.GROUP, group),
                                List.of(new AlterConfigOp(
                                        new ConfigEntry("share.auto.offset.reset", "earliest"),
                                        AlterConfigOp.OpType.SET))))
                        .all()
                        .get(60, TimeUnit.SECONDS);
            }
            // One record a batch: a share fetch acquires whole batches, so the limit is then exact.
            try (KafkaProducer<String, String> producer =
                    clients.producer(ProducerConfig.BATCH_SIZE_CONFIG, "1", ProducerConfig.LINGER_MS_CONFIG, "0")) {
                for (int i = 0; i < RECORDS; i++) {
                    producer.send(new ProducerRecord<>(topic, Integer.toString(i)));
                }
                producer.flush();
            }
            sluice.limit(topic, "{\"dispatch\": {\"messagesPerSecond\": 20}}");

            List<String> received = new ArrayList<>();
            try (KafkaShareConsumer<String, String> consumer = shareConsumer(sluice, group)) {
                consumer.subscribe(List.of(topic));
                long start = System.nanoTime();
                long firstAt = 0;
                while (System.nanoTime() - start < TimeUnit.SECONDS.toNanos(30) && firstAt == 0) {
                    if (poll(consumer, received) > 0) {
                        firstAt = System.nanoTime();
                    }
                }
                assertTrue(firstAt > 0, "the share consumer got records through Sluice");
                while (System.nanoTime() - firstAt < TimeUnit.SECONDS.toNanos(4)) {
                    poll(consumer, received);
                }
                int inFourSeconds = received.size();
                System.out.printf(
                        "[kafka-share] %d of %d records to a share consumer in the 4 s after its first, at 20/s%n",
                        inFourSeconds, RECORDS);
                // The burst (20), 4 s at 20/s, and what the first fetches asked for before any charge came back.
                assertTrue(inFourSeconds <= 20 + 80 + 40, inFourSeconds + " records in 4 s at 20/s");
                assertTrue(inFourSeconds >= 40, "the consumer keeps its rate: " + inFourSeconds);

                sluice.limit(topic, "{\"dispatch\": {\"messagesPerSecond\": 100000}}");
                long drainStart = System.nanoTime();
                while (received.size() < RECORDS && System.nanoTime() - drainStart < TimeUnit.SECONDS.toNanos(60)) {
                    poll(consumer, received);
                }
            }
            Set<String> distinct = new HashSet<>(received);
            System.out.printf(
                    "[kafka-share] %d records delivered, %d distinct, of %d%n",
                    received.size(), distinct.size(), RECORDS);
            assertEquals(RECORDS, distinct.size(), "every record delivered");
            assertEquals(RECORDS, received.size(), "none delivered twice: no acquired record was left to time out");
            assertFalse(sluice.leaked(), "Sluice's log reports a leaked buffer");
        }
    }

    private static int poll(KafkaShareConsumer<String, String> consumer, List<String> received) {
        int count = 0;
        for (ConsumerRecord<String, String> record : consumer.poll(Duration.ofMillis(200))) {
            received.add(record.value());
            count++;
        }
        return count;
    }

    private static KafkaShareConsumer<String, String> shareConsumer(SluiceForKafka sluice, String group) {
        Properties props = new Properties();
        props.put("bootstrap.servers", sluice.bootstrap());
        props.put("group.id", group);
        return new KafkaShareConsumer<>(props, new StringDeserializer(), new StringDeserializer());
    }
}
