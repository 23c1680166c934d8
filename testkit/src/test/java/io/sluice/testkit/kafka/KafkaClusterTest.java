package io.sluice.testkit.kafka;

import io.sluice.testkit.process.PidFile;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.errors.SaslAuthenticationException;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * One cluster through its life with the real kafka-clients: brokers advertised as asked,
 * transactions, SASL PLAIN and SCRAM-SHA-256 (and a wrong password refused), a broker restarted
 * and another killed and started again keeping ports and data, and nothing left after close.
 */
class KafkaClusterTest {

    private static final String TOPIC = "testkit-topic";

    @Test
    void lifecycle() throws Exception {
        long startNanos = System.nanoTime();
        KafkaCluster cluster = KafkaCluster.builder()
                .saslUser("alice", "alice-secret")
                .socketRequestMaxBytes(2 * 1024 * 1024)
                .start();
        List<Long> pids = new ArrayList<>();
        try {
            System.out.printf(
                    "Kafka cluster (1 controller + 3 brokers) started in %.1f s: %s%n", seconds(startNanos), cluster);
            cluster.nodeIds().forEach(id -> pids.add(cluster.pid(id)));
            pids.forEach(pid -> assertTrue(Files.exists(PidFile.directory().resolve(pid + ".pid"))));

            try (Admin admin =
                    Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, cluster.bootstrapServers()))) {
                Collection<Node> nodes = admin.describeCluster().nodes().get(30, TimeUnit.SECONDS);
                assertEquals(
                        Set.of(
                                "1 127.0.0.1:" + cluster.brokerPort(1),
                                "2 127.0.0.1:" + cluster.brokerPort(2),
                                "3 127.0.0.1:" + cluster.brokerPort(3)),
                        nodes.stream()
                                .map(n -> n.id() + " " + n.host() + ":" + n.port())
                                .collect(Collectors.toSet()));
                ConfigResource broker1 = new ConfigResource(ConfigResource.Type.BROKER, "1");
                assertEquals(
                        "2097152",
                        admin.describeConfigs(List.of(broker1))
                                .all()
                                .get(30, TimeUnit.SECONDS)
                                .get(broker1)
                                .get("socket.request.max.bytes")
                                .value());
                admin.createTopics(List.of(new NewTopic(TOPIC, 3, (short) 3)))
                        .all()
                        .get(30, TimeUnit.SECONDS);
            }

            sendInTransaction(cluster.bootstrapServers(), "tx-1", "plain", 0, 100, Map.of());
            sendInTransaction(
                    cluster.saslBootstrapServers(),
                    "tx-2",
                    "sasl-plain",
                    0,
                    50,
                    sasl("PLAIN", "alice", "alice-secret"));
            sendInTransaction(
                    cluster.saslBootstrapServers(),
                    "tx-3",
                    "scram",
                    0,
                    50,
                    sasl("SCRAM-SHA-256", "alice", "alice-secret"));
            assertEquals(200, readCommitted(cluster.bootstrapServers(), 200).size());

            ExecutionException refused = assertThrows(
                    ExecutionException.class,
                    () -> sendInTransaction(
                            cluster.saslBootstrapServers(),
                            "tx-4",
                            "bad",
                            0,
                            1,
                            sasl("SCRAM-SHA-256", "alice", "wrong")));
            assertInstanceOf(SaslAuthenticationException.class, refused.getCause());

            long restartNanos = System.nanoTime();
            cluster.restartBroker(1);
            System.out.printf("broker 1 stopped and started again in %.1f s%n", seconds(restartNanos));
            assertNotEquals(pids.get(0), cluster.pid(1));
            assertFalse(
                    Files.exists(PidFile.directory().resolve(pids.get(0) + ".pid")), "the old JVM's PID file is gone");

            int port2 = cluster.brokerPort(2);
            long killNanos = System.nanoTime();
            cluster.killBroker(2);
            assertFalse(cluster.isRunning(2));
            long killedNanos = System.nanoTime();
            cluster.startBroker(2);
            System.out.printf(
                    "broker 2 killed in %.1f s, started again in %.1f s%n",
                    (killedNanos - killNanos) / 1e9, seconds(killedNanos));
            assertEquals(port2, cluster.brokerPort(2));

            sendInTransaction(cluster.bootstrapServers(), "tx-1", "after-restarts", 0, 100, Map.of());
            List<ConsumerRecord<String, String>> all = readCommitted(cluster.bootstrapServers(), 300);
            assertEquals(300, all.size(), "nothing committed before the restarts was lost");
        } finally {
            long closeNanos = System.nanoTime();
            cluster.close();
            System.out.printf("Kafka cluster closed in %.1f s%n", seconds(closeNanos));
        }
        assertFalse(Files.exists(cluster.dataDir()), "data directory left behind");
        for (int id : cluster.nodeIds()) {
            long pid = cluster.pid(id);
            assertFalse(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false), "broker JVM still alive");
            assertFalse(Files.exists(PidFile.directory().resolve(pid + ".pid")), "PID file left behind");
        }
    }

    private static Map<String, String> sasl(String mechanism, String user, String password) {
        String module = mechanism.equals("PLAIN")
                ? "org.apache.kafka.common.security.plain.PlainLoginModule"
                : "org.apache.kafka.common.security.scram.ScramLoginModule";
        return Map.of(
                "security.protocol",
                "SASL_PLAINTEXT",
                "sasl.mechanism",
                mechanism,
                "sasl.jaas.config",
                module + " required username=\"" + user + "\" password=\"" + password + "\";");
    }

    private static void sendInTransaction(
            String bootstrap, String transactionalId, String prefix, int from, int count, Map<String, String> security)
            throws Exception {
        Properties p = new Properties();
        p.putAll(security);
        p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        p.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, transactionalId);
        p.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, "30000");
        try (KafkaProducer<String, String> producer =
                new KafkaProducer<>(p, new StringSerializer(), new StringSerializer())) {
            try {
                producer.initTransactions();
            } catch (SaslAuthenticationException e) {
                throw new ExecutionException(e);
            }
            producer.beginTransaction();
            for (int i = from; i < from + count; i++) {
                producer.send(new ProducerRecord<>(TOPIC, prefix + "-" + i, "value-" + i));
            }
            producer.commitTransaction();
        }
    }

    private static List<ConsumerRecord<String, String>> readCommitted(String bootstrap, int expected) {
        Properties p = new Properties();
        p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        p.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        List<ConsumerRecord<String, String>> records = new ArrayList<>();
        try (KafkaConsumer<String, String> consumer =
                new KafkaConsumer<>(p, new StringDeserializer(), new StringDeserializer())) {
            List<TopicPartition> partitions = List.of(0, 1, 2).stream()
                    .map(i -> new TopicPartition(TOPIC, i))
                    .toList();
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (records.size() < expected && System.nanoTime() < deadline) {
                consumer.poll(Duration.ofMillis(500)).forEach(records::add);
            }
        }
        return records;
    }

    private static double seconds(long sinceNanos) {
        return (System.nanoTime() - sinceNanos) / 1e9;
    }
}
