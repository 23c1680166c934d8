package io.sluice.server.it.kafka;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.compress.Compression;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.record.internal.MemoryRecords;
import org.apache.kafka.common.record.internal.SimpleRecord;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Kafka clients that would get traffic past a limit, or lose it, through a real {@code sluice.jar}
 * in front of the real KRaft cluster; what reached the brokers is read back from them.
 */
class KafkaBypassIT {

    private static final String PLAIN_MODULE = "org.apache.kafka.common.security.plain.PlainLoginModule";

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

    /**
     * Produces ten requests of 100 records by {@code topic}'s id (Produce v13, no Metadata first)
     * through {@code sluice}, whose topic is limited to 100 records/s (reject), after {@code login};
     * checks the limit held and every request was decided; returns the records accepted.
     */
    private static int meteredById(SluiceForKafka sluice, TopicDescription topic, String name, Login login)
            throws Exception {
        int leader = topic.partitions().get(0).leader().id();
        int nodePort = sluice.nodePortBase + leader;
        KafkaClientsIT.await(() -> accepts(nodePort), "Sluice's port for node " + leader);
        int accepted = 0;
        int unknown = 0;
        long start = System.nanoTime();
        try (RawKafkaClient raw = new RawKafkaClient(nodePort)) {
            login.to(raw);
            for (int request = 0; request < 10; request++) {
                short error = raw.produceById(topic.topicId(), 0, 100);
                if (error == Errors.NONE.code()) {
                    accepted += 100;
                } else if (error == Errors.UNKNOWN_TOPIC_ID.code()) {
                    unknown++;
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
                "[kafka-bypass] %s: %d of 1000 records sent by id accepted in %.1f s under 100 records/s,"
                        + " %d of 10 requests answered UNKNOWN_TOPIC_ID%n",
                name, accepted, seconds, unknown);
        assertEquals(0, unknown, "Sluice learnt the id");
        // The burst (100), the rate over the time taken, and one batch of 100 that a bucket with room admits whole.
        assertTrue(accepted >= 100, "the burst was admitted: " + accepted);
        assertTrue(accepted <= 200 + 100 * seconds, accepted + " records accepted in " + seconds + " s");
        assertFalse(sluice.leaked(), "Sluice's log reports a leaked buffer");
        return accepted;
    }

    /** How the raw client logs in before it produces. */
    @FunctionalInterface
    private interface Login {
        Login NONE = raw -> {};

        void to(RawKafkaClient raw) throws Exception;
    }

    private static final String LIMIT_100 = "{\"publish\": {\"messagesPerSecond\": 100}, \"onExceed\": \"reject\"}";

    @Test
    void aFreshSluiceMetersProduceByATopicIdThatOnlyAnotherSluiceSaw() throws Exception {
        BrokersOnlySluiceReaches brokers = BrokersOnlySluiceReaches.get();
        String topic = KafkaClientsIT.unique("by-id");
        try (SluiceForKafka first = SluiceForKafka.start(brokers, brokers.plaintextBootstrap());
                SluiceForKafka fresh = SluiceForKafka.start(brokers, brokers.plaintextBootstrap())) {
            KafkaClients viaFirst = new KafkaClients(first.bootstrap());
            viaFirst.createTopics(1, topic);
            TopicDescription description = viaFirst.describe(topic);
            fresh.limit(topic, LIMIT_100);
            // The fresh Sluice knows the nodes (it asks the cluster at start) but no topic id.
            meteredById(fresh, description, "fresh Sluice", Login.NONE);
        }
    }

    @Test
    void aRestartedSluiceMetersProduceByTheIdsItsClientsCachedBefore() throws Exception {
        BrokersOnlySluiceReaches brokers = BrokersOnlySluiceReaches.get();
        String topic = KafkaClientsIT.unique("restart-by-id");
        try (SluiceForKafka sluice = SluiceForKafka.start(brokers, brokers.plaintextBootstrap())) {
            KafkaClients clients = new KafkaClients(sluice.bootstrap());
            clients.createTopics(1, topic);
            // The client's Metadata goes through this Sluice, which learns the id; then it restarts.
            TopicDescription description = clients.describe(topic);
            sluice.limit(topic, LIMIT_100);
            sluice.process.terminate();
            assertEquals(0, sluice.process.awaitExit(60), "exit code after SIGTERM");
            sluice.process.restart();
            meteredById(sluice, description, "restarted Sluice", Login.NONE);
        }
    }

    @Test
    void aSmallHeldPartitionOfAHugeRequestPinsOnlyItsOwnBytes() throws Exception {
        BrokersOnlySluiceReaches brokers = BrokersOnlySluiceReaches.get();
        String limited = KafkaClientsIT.unique("pinned-limited");
        String bulk = KafkaClientsIT.unique("pinned-bulk");
        int requests = 3;
        try (SluiceForKafka sluice = SluiceForKafka.start(brokers, brokers.plaintextBootstrap())) {
            KafkaClients clients = new KafkaClients(sluice.bootstrap());
            int leader;
            try (Admin admin = clients.admin()) {
                // Both topics on one broker, so that one request carries both.
                leader = admin.describeCluster()
                        .nodes()
                        .get(60, TimeUnit.SECONDS)
                        .iterator()
                        .next()
                        .id();
                Map<Integer, List<Integer>> onLeader = Map.of(0, List.of(leader));
                admin.createTopics(List.of(
                                new NewTopic(limited, onLeader),
                                new NewTopic(bulk, onLeader)
                                        .configs(Map.of("max.message.bytes", Integer.toString(60 << 20)))))
                        .all()
                        .get(60, TimeUnit.SECONDS);
            }
            MemoryRecords fifty = MemoryRecords.withRecords(Compression.NONE, new SimpleRecord(new byte[50 << 20]));
            try (RawKafkaClient raw = new RawKafkaClient(sluice.nodePortBase + leader)) {
                // A small first request: a connection's first may be at most 1 MiB.
                assertEquals(Errors.NONE.code(), raw.produce(limited, 0, RawKafkaClient.batch(1)));
                // One record a minute: every record of the limited topic from now on is held for the whole test.
                sluice.limit(limited, "{\"publish\": {\"messagesPerSecond\": 0.016}, \"onExceed\": \"delay\"}");
                for (int request = 0; request < requests; request++) {
                    // 100 bytes over quota beside 50 MiB within it: the connection may hold 64 MiB, so
                    // two requests pinned whole would pause it.
                    raw.produceUnanswered(Map.of(limited, RawKafkaClient.batch(1), bulk, fifty));
                }
                // Measured while the connection is open: held batches go with it when it closes.
                KafkaClientsIT.await(
                        () -> topicSample(sluice, "sluice_publish_bytes_total", bulk) >= requests * (50 << 20),
                        "every 50 MiB partition forwarded: the connection was not paused");
                double held = topicSample(sluice, "sluice_held_bytes", limited);
                System.out.printf(
                        "[kafka-bypass] pinned memory: %d requests of 50 MiB forwarded, %.0f bytes held for the"
                                + " limited topic%n",
                        requests, held);
                assertTrue(
                        held > 0 && held < 1_000, "held bytes count the held partitions, not their requests: " + held);
            }
            assertFalse(sluice.leaked(), "Sluice's log reports a leaked buffer");
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

    /**
     * Sends {@code poison} to partition 0 of a fresh topic limited to 100 records/s (reject), then
     * 60 records at 10/s with a stock producer; returns how many of those were stored.
     */
    private static int storedAfter(String name, MemoryRecords poison) throws Exception {
        BrokersOnlySluiceReaches brokers = BrokersOnlySluiceReaches.get();
        String topic = KafkaClientsIT.unique(name);
        try (SluiceForKafka sluice = SluiceForKafka.start(brokers, brokers.plaintextBootstrap())) {
            KafkaClients clients = new KafkaClients(sluice.bootstrap());
            clients.createTopics(1, topic);
            sluice.limit(topic, "{\"publish\": {\"messagesPerSecond\": 100}, \"onExceed\": \"reject\"}");
            int leader = clients.describe(topic).partitions().get(0).leader().id();
            try (RawKafkaClient raw = new RawKafkaClient(sluice.nodePortBase + leader)) {
                // A record first, so that the topic's bucket exists and is full when the poison comes.
                assertEquals(Errors.NONE.code(), raw.produce(topic, 0, RawKafkaClient.batch(1)));
                Thread.sleep(1_500);
                System.out.printf(
                        "[kafka-bypass] %s: the poisoning batch was answered %s%n",
                        name, Errors.forCode(raw.produce(topic, 0, poison)));
            }
            int stored = 0;
            try (KafkaProducer<String, String> producer =
                    clients.producer(ProducerConfig.LINGER_MS_CONFIG, "0", ProducerConfig.RETRIES_CONFIG, "0")) {
                for (int i = 0; i < 60; i++) {
                    try {
                        producer.send(new ProducerRecord<>(topic, Integer.toString(i)))
                                .get(30, TimeUnit.SECONDS);
                        stored++;
                    } catch (ExecutionException refused) {
                        // counted as not stored
                    }
                    Thread.sleep(100);
                }
            }
            assertFalse(sluice.leaked(), "Sluice's log reports a leaked buffer");
            return stored;
        }
    }

    @Test
    void aBatchClaimingTwoBillionRecordsPutsNoBucketInDebt() throws Exception {
        MemoryRecords lying = RawKafkaClient.batch(1);
        lying.buffer().putInt(57, Integer.MAX_VALUE); // the batch header's recordCount
        int stored = storedAfter("claims-records", lying);
        System.out.printf(
                "[kafka-bypass] after a batch of 1 record claiming 2,147,483,647: %d of 60 records stored at 10/s under 100/s%n",
                stored);
        assertEquals(60, stored);
    }

    @Test
    void aBatchTheBrokerRefusesGivesItsChargeBack() throws Exception {
        MemoryRecords corrupt = RawKafkaClient.batch(1_000);
        corrupt.buffer().put(17, (byte) ~corrupt.buffer().get(17)); // a byte of the CRC: the broker refuses the batch
        int stored = storedAfter("refused-batch", corrupt);
        System.out.printf(
                "[kafka-bypass] after a refused batch of 1,000 records: %d of 60 records stored at 10/s under 100/s%n",
                stored);
        assertEquals(60, stored);
    }

    @Test
    void aFreshSluiceOnASaslListenerLogsInToLookTopicIdsUp() throws Exception {
        BrokersOnlySluiceReaches brokers = BrokersOnlySluiceReaches.get();
        String topic = KafkaClientsIT.unique("sasl-by-id");
        Path password = Files.createTempFile("lookup", ".password");
        Files.writeString(password, BrokersOnlySluiceReaches.SECOND_SASL_PASSWORD + "\n");
        String user = BrokersOnlySluiceReaches.SASL_USER;
        try (SluiceForKafka first = SluiceForKafka.start(brokers, brokers.saslBootstrap());
                SluiceForKafka fresh = SluiceForKafka.start(
                        brokers,
                        brokers.saslBootstrap(),
                        "--kafka-lookup-sasl-mechanism",
                        "SCRAM-SHA-256",
                        "--kafka-lookup-sasl-username",
                        BrokersOnlySluiceReaches.SECOND_SASL_USER,
                        "--kafka-lookup-sasl-password-file",
                        password.toString())) {
            KafkaClients viaFirst = KafkaClients.sasl(
                    first.bootstrap(), "PLAIN", PLAIN_MODULE, user, BrokersOnlySluiceReaches.SASL_PASSWORD);
            viaFirst.createTopics(1, topic);
            TopicDescription description = viaFirst.describe(topic);
            // The fresh Sluice learns the nodes from a client that names no topic.
            KafkaClients viaFresh = KafkaClients.sasl(
                    fresh.bootstrap(), "PLAIN", PLAIN_MODULE, user, BrokersOnlySluiceReaches.SASL_PASSWORD);
            try (Admin admin = viaFresh.admin()) {
                admin.describeCluster().nodes().get(60, TimeUnit.SECONDS);
            }
            fresh.limit(topic, LIMIT_100);
            meteredById(
                    fresh,
                    description,
                    "SASL listener, fresh Sluice",
                    raw -> raw.loginPlain(user, BrokersOnlySluiceReaches.SASL_PASSWORD));
        } finally {
            Files.deleteIfExists(password);
        }
    }
}
