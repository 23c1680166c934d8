package io.sluice.server.it.kafka;

import io.sluice.testkit.process.ChildProcess;
import io.sluice.testkit.process.JavaCommand;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.TopicPartitionInfo;
import org.apache.kafka.common.config.ConfigResource;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Stock Java clients (the pinned kafka-clients 4.x) through one Sluice to a real three-broker
 * cluster whose brokers advertise a host only Sluice resolves ({@link BrokersOnlySluiceReaches}):
 * whatever works here worked through Sluice. The broker restart goes last, as it disturbs the others.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class KafkaClientsIT {

    private static final Duration WAIT = Duration.ofSeconds(60);

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
            sluice.closeCheckingLeaks();
        }
    }

    @Test
    @Order(1)
    void tenThousandRecordsArriveInOrderPerPartition() throws Exception {
        String topic = unique("ordered");
        clients.createTopics(3, topic);
        int total = 10_000;
        try (KafkaProducer<String, String> producer = clients.producer()) {
            awaitAll(sendNumbered(producer, topic, 3, 0, total));
        }
        assertNumberedInOrder(consumeAll(clients.consumer(), List.of(topic), total), 3, total);
    }

    @Test
    @Order(2)
    void idempotentAndTransactionalProducersCommitAndAbortForReadCommittedConsumers() throws Exception {
        String topic = unique("transactions");
        clients.createTopics(2, topic);
        try (KafkaProducer<String, String> producer =
                clients.producer(ProducerConfig.TRANSACTIONAL_ID_CONFIG, unique("tx"))) {
            producer.initTransactions();
            producer.beginTransaction();
            awaitAll(sendValues(producer, topic, "committed-", 0, 100));
            producer.commitTransaction();
            producer.beginTransaction();
            awaitAll(sendValues(producer, topic, "aborted-", 0, 50));
            producer.abortTransaction();
            producer.beginTransaction();
            awaitAll(sendValues(producer, topic, "committed-", 100, 110));
            producer.commitTransaction();
        }
        List<ConsumerRecord<String, String>> committed = consumeAll(
                clients.consumer(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed"), List.of(topic), 110);
        Set<String> values = new HashSet<>();
        committed.forEach(record -> values.add(record.value()));
        assertEquals(110, values.size());
        assertTrue(values.stream().allMatch(value -> value.startsWith("committed-")), "an aborted record was read");
        List<ConsumerRecord<String, String>> everything = consumeAll(
                clients.consumer(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_uncommitted"), List.of(topic), 160);
        assertEquals(
                50,
                everything.stream()
                        .filter(record -> record.value().startsWith("aborted-"))
                        .count());
    }

    @Test
    @Order(3)
    void aConsumerGroupOfThreeRebalancesWhileConsumingAndMissesNothing() throws Exception {
        String topic = unique("group");
        String group = unique("group");
        clients.createTopics(6, topic);
        int total = 3_000;
        Set<String> seen = ConcurrentHashMap.newKeySet();
        Map<Integer, Collection<TopicPartition>> assignments = new ConcurrentHashMap<>();
        AtomicBoolean running = new AtomicBoolean(true);
        List<Thread> members = new ArrayList<>();
        List<Throwable> failures = new CopyOnWriteArrayList<>();
        try (KafkaProducer<String, String> producer = clients.producer()) {
            for (int member = 0; member < 2; member++) {
                members.add(groupMember(member, topic, group, seen, assignments, running, failures));
            }
            List<Future<RecordMetadata>> sends = new ArrayList<>();
            for (int i = 0; i < total; i++) {
                sends.add(producer.send(new ProducerRecord<>(topic, "key-" + i, Integer.toString(i))));
                if (i == total / 3) {
                    producer.flush();
                    await(() -> seen.size() > total / 10, "the first two members consuming");
                    members.add(groupMember(2, topic, group, seen, assignments, running, failures));
                }
                if (i % 100 == 0) {
                    Thread.sleep(20);
                }
            }
            awaitAll(sends);
            await(() -> seen.size() == total, "every record consumed by the group");
            await(
                    () -> assignments.size() == 3
                            && assignments.values().stream().allMatch(a -> a.size() == 2),
                    "six partitions shared by three members after the rebalance: " + assignments);
        } finally {
            running.set(false);
            for (Thread member : members) {
                member.join(30_000);
            }
        }
        assertEquals(List.of(), failures);
        assertEquals(total, seen.size());
    }

    @Test
    @Order(4)
    void adminOperationsWorkAndEveryNodeTheClientsSeeIsSluice() throws Exception {
        String topic = unique("admin");
        String group = unique("admin-group");
        try (Admin admin = clients.admin()) {
            admin.createTopics(List.of(new NewTopic(topic, 4, (short) 3))).all().get(60, TimeUnit.SECONDS);
            // Brokers learn of a new topic a little after the controller made it.
            await(() -> topicNames(admin).contains(topic), "the new topic listed");
            TopicDescription description =
                    admin.describeTopics(List.of(topic)).allTopicNames().get().get(topic);
            assertEquals(4, description.partitions().size());

            // No client is told of a broker other than through Sluice's ports.
            Collection<Node> nodes = admin.describeCluster().nodes().get();
            assertEquals(3, nodes.size());
            for (Node node : nodes) {
                assertSluiceNode(node);
            }
            for (TopicPartitionInfo partition : description.partitions()) {
                assertSluiceNode(partition.leader());
                partition.replicas().forEach(KafkaClientsIT::assertSluiceNode);
            }

            ConfigResource resource = new ConfigResource(ConfigResource.Type.TOPIC, topic);
            admin.incrementalAlterConfigs(Map.of(
                            resource,
                            List.of(new AlterConfigOp(
                                    new ConfigEntry("retention.ms", "3600000"), AlterConfigOp.OpType.SET))))
                    .all()
                    .get();
            assertEquals(
                    "3600000",
                    admin.describeConfigs(List.of(resource))
                            .all()
                            .get()
                            .get(resource)
                            .get("retention.ms")
                            .value());

            try (KafkaProducer<String, String> producer = clients.producer()) {
                awaitAll(sendValues(producer, topic, "v", 0, 40));
            }
            try (KafkaConsumer<String, String> consumer = clients.consumer(
                    ConsumerConfig.GROUP_ID_CONFIG, group, ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false")) {
                consumer.subscribe(List.of(topic));
                int received = 0;
                long deadline = System.nanoTime() + WAIT.toNanos();
                while (received < 40 && System.nanoTime() < deadline) {
                    received += consumer.poll(Duration.ofMillis(200)).count();
                }
                assertEquals(40, received);
                consumer.commitSync();
            }
            Map<TopicPartition, OffsetAndMetadata> offsets = admin.listConsumerGroupOffsets(group)
                    .partitionsToOffsetAndMetadata()
                    .get();
            assertEquals(
                    40,
                    offsets.values().stream()
                            .mapToLong(OffsetAndMetadata::offset)
                            .sum());
            Map<TopicPartition, Long> ends = new HashMap<>();
            admin.listOffsets(offsets.keySet().stream()
                            .collect(java.util.stream.Collectors.toMap(tp -> tp, tp -> OffsetSpec.latest())))
                    .all()
                    .get()
                    .forEach((tp, info) -> ends.put(tp, info.offset()));
            offsets.forEach((tp, committed) -> assertEquals(ends.get(tp), committed.offset(), "lag of " + tp));

            TopicPartition first = new TopicPartition(topic, 0);
            admin.alterConsumerGroupOffsets(group, Map.of(first, new OffsetAndMetadata(0)))
                    .all()
                    .get();
            assertEquals(
                    0,
                    admin.listConsumerGroupOffsets(group)
                            .partitionsToOffsetAndMetadata()
                            .get()
                            .get(first)
                            .offset());
            admin.deleteConsumerGroups(List.of(group)).all().get();

            admin.deleteTopics(List.of(topic)).all().get();
            await(() -> !topicNames(admin).contains(topic), "topic deleted");
        }
    }

    @Test
    @Order(5)
    void gzipLz4ZstdAndSnappyBatchesPassUnchanged() throws Exception {
        String topic = unique("compressed");
        clients.createTopics(1, topic);
        List<String> codecs = List.of("gzip", "lz4", "zstd", "snappy");
        for (String codec : codecs) {
            try (KafkaProducer<String, String> producer = clients.producer(
                    ProducerConfig.COMPRESSION_TYPE_CONFIG, codec, ProducerConfig.LINGER_MS_CONFIG, "20")) {
                awaitAll(sendValues(producer, topic, codec + "-" + "x".repeat(200) + "-", 0, 250));
            }
        }
        List<ConsumerRecord<String, String>> records = consumeAll(clients.consumer(), List.of(topic), 1_000);
        for (String codec : codecs) {
            assertEquals(
                    250,
                    records.stream()
                            .filter(r -> r.value().startsWith(codec + "-"))
                            .count(),
                    codec);
        }
    }

    @Test
    @Order(6)
    void aFiveMebibyteRecordGoesThroughWhole() throws Exception {
        String topic = unique("large");
        clients.createTopics(1, topic);
        String value = "0123456789abcdef".repeat(5 * 1024 * 1024 / 16);
        try (KafkaProducer<String, String> producer = clients.producer(
                ProducerConfig.MAX_REQUEST_SIZE_CONFIG, Integer.toString(BrokersOnlySluiceReaches.MAX_MESSAGE_BYTES),
                ProducerConfig.BUFFER_MEMORY_CONFIG, Integer.toString(64 * 1024 * 1024))) {
            producer.send(new ProducerRecord<>(topic, "large", value)).get(60, TimeUnit.SECONDS);
        }
        List<ConsumerRecord<String, String>> records = consumeAll(
                clients.consumer(
                        ConsumerConfig.FETCH_MAX_BYTES_CONFIG,
                        Integer.toString(BrokersOnlySluiceReaches.MAX_MESSAGE_BYTES)),
                List.of(topic),
                1);
        assertEquals(value, records.get(0).value());
    }

    @Test
    @Order(7)
    void twoClientsProduceToTwentyTopicsEachOverTheirSharedConnections() throws Exception {
        List<String> topics = KafkaClients.names(unique("shared") + "-", 20);
        clients.createTopics(1, topics.toArray(String[]::new));
        double connectionsBefore = sluice.metric("sluice_connections{protocol=\"kafka\"}");
        try (KafkaProducer<String, String> first = clients.producer(ProducerConfig.CLIENT_ID_CONFIG, "shared-a");
                KafkaProducer<String, String> second = clients.producer(ProducerConfig.CLIENT_ID_CONFIG, "shared-b")) {
            List<Future<RecordMetadata>> sends = new ArrayList<>();
            for (int round = 0; round < 25; round++) {
                for (String topic : topics) {
                    sends.add(first.send(new ProducerRecord<>(topic, "a-" + round)));
                    sends.add(second.send(new ProducerRecord<>(topic, "b-" + round)));
                }
            }
            awaitAll(sends);
            // Each producer holds at most its bootstrap connection and one per broker, whatever the topic count.
            double opened = sluice.metric("sluice_connections{protocol=\"kafka\"}") - connectionsBefore;
            assertTrue(opened <= 2 * (1 + 3), "the producers hold " + opened + " connections through Sluice");
        }
        List<ConsumerRecord<String, String>> records = consumeAll(clients.consumer(), topics, 20 * 50);
        for (String topic : topics) {
            assertEquals(
                    50, records.stream().filter(r -> r.topic().equals(topic)).count(), topic);
        }
        assertTrue(sluice.metric("sluice_requests_total{api=\"produce\",protocol=\"kafka\"}") > 0);
        assertTrue(sluice.metric("sluice_client_bytes_total{direction=\"in\",protocol=\"kafka\"}") > 0);
    }

    @Test
    @Order(8)
    void anOlderClientLineWorksThroughSluiceToo() throws Exception {
        Path jars = Path.of("target", "kafka-clients-3").toAbsolutePath();
        String classpath;
        try (Stream<Path> files = Files.list(jars)) {
            classpath = Stream.concat(
                            files.map(Path::toString),
                            Stream.of(Path.of(OlderClientScenario.class
                                            .getProtectionDomain()
                                            .getCodeSource()
                                            .getLocation()
                                            .toURI())
                                    .toString()))
                    .collect(Collectors.joining(File.pathSeparator));
        }
        ChildProcess child = JavaCommand.mainClass(OlderClientScenario.class.getName())
                .classpath(classpath)
                .args(sluice.bootstrap(), unique("older-client"))
                .spec("kafka-clients-3")
                .logFile(Files.createTempDirectory("kafka-clients-3").resolve("client.log"))
                .echo("[kafka-clients 3] ")
                .build()
                .start();
        try {
            assertTrue(child.awaitExit(Duration.ofSeconds(180)), "the 3.x client still runs");
            assertTrue(child.logLine("kafka-clients 3.").isPresent(), "not a 3.x client: " + child.logTail());
            assertEquals(0, child.exitValue(), child.logTail());
        } finally {
            child.kill();
        }
    }

    @Test
    @Order(100)
    void aBrokerRestartedMidStreamLosesNoAcknowledgedRecord() throws Exception {
        String topic = unique("restart");
        clients.createTopics(3, topic);
        int total = 6_000;
        int restarted = 2;
        Map<Integer, List<Integer>> acknowledged = new ConcurrentHashMap<>();
        AtomicInteger failed = new AtomicInteger();
        Thread restart = new Thread(() -> brokers.cluster.restartBroker(restarted), "restart-broker");
        try (KafkaProducer<String, String> producer = clients.producer(
                ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG,
                "120000",
                ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG,
                "15000")) {
            List<Future<RecordMetadata>> sends = new ArrayList<>();
            for (int i = 0; i < total; i++) {
                int value = i;
                sends.add(producer.send(
                        new ProducerRecord<>(topic, i % 3, null, Integer.toString(i)), (metadata, error) -> {
                            if (error == null) {
                                acknowledged
                                        .computeIfAbsent(metadata.partition(), p -> new CopyOnWriteArrayList<>())
                                        .add(value);
                            } else {
                                failed.incrementAndGet();
                            }
                        }));
                if (i == total / 6) {
                    restart.start();
                }
                if (i % 50 == 0) {
                    Thread.sleep(20);
                }
            }
            for (Future<RecordMetadata> send : sends) {
                try {
                    send.get(180, TimeUnit.SECONDS);
                } catch (java.util.concurrent.ExecutionException e) {
                    // Counted by the callback; what matters is that acknowledged records are kept.
                }
            }
        } finally {
            restart.join(180_000);
        }
        assertTrue(brokers.cluster.isRunning(restarted));
        int acked = acknowledged.values().stream().mapToInt(List::size).sum();
        System.out.printf("broker restart: %d of %d records acknowledged, %d failed%n", acked, total, failed.get());
        assertEquals(total, acked + failed.get());
        assertEquals(0, failed.get(), "the idempotent producer retried every batch through the restart");
        Map<Integer, List<Integer>> stored = new TreeMap<>();
        for (ConsumerRecord<String, String> record : consumeAll(clients.consumer(), List.of(topic), acked)) {
            stored.computeIfAbsent(record.partition(), p -> new ArrayList<>()).add(Integer.parseInt(record.value()));
        }
        for (int partition = 0; partition < 3; partition++) {
            List<Integer> values = stored.getOrDefault(partition, List.of());
            assertEquals(values.stream().sorted().toList(), values, "partition " + partition + " in order");
            assertEquals(new HashSet<>(values).size(), values.size(), "partition " + partition + " has duplicates");
            assertTrue(
                    values.containsAll(acknowledged.getOrDefault(partition, List.of())), "acknowledged records lost");
        }
    }

    // ---------------------------------------------------------------------------------------------

    private static Set<String> topicNames(Admin admin) {
        try {
            return admin.listTopics().names().get();
        } catch (Exception e) {
            throw new AssertionError("listing topics failed", e);
        }
    }

    private static void assertSluiceNode(Node node) {
        assertEquals("127.0.0.1", node.host(), "node " + node);
        assertEquals(sluice.nodePortBase + node.id(), node.port(), "node " + node);
    }

    private static Thread groupMember(
            int member,
            String topic,
            String group,
            Set<String> seen,
            Map<Integer, Collection<TopicPartition>> assignments,
            AtomicBoolean running,
            List<Throwable> failures) {
        Thread thread = new Thread(
                () -> {
                    try (KafkaConsumer<String, String> consumer = clients.consumer(
                            ConsumerConfig.GROUP_ID_CONFIG,
                            group,
                            ConsumerConfig.CLIENT_ID_CONFIG,
                            group + "-" + member,
                            ConsumerConfig.MAX_POLL_RECORDS_CONFIG,
                            "50")) {
                        consumer.subscribe(List.of(topic), new ConsumerRebalanceListener() {
                            @Override
                            public void onPartitionsRevoked(Collection<TopicPartition> partitions) {
                                consumer.commitSync();
                            }

                            @Override
                            public void onPartitionsAssigned(Collection<TopicPartition> partitions) {
                                assignments.put(member, List.copyOf(consumer.assignment()));
                            }
                        });
                        while (running.get()) {
                            for (ConsumerRecord<String, String> record : consumer.poll(Duration.ofMillis(100))) {
                                seen.add(record.value());
                            }
                            consumer.commitAsync();
                        }
                    } catch (Throwable e) {
                        failures.add(e);
                    }
                },
                "group-member-" + member);
        thread.start();
        return thread;
    }

    static List<Future<RecordMetadata>> sendNumbered(
            KafkaProducer<String, String> producer, String topic, int partitions, int from, int to) {
        List<Future<RecordMetadata>> sends = new ArrayList<>();
        for (int i = from; i < to; i++) {
            sends.add(producer.send(
                    new ProducerRecord<>(topic, i % partitions, "key-" + (i % partitions), Integer.toString(i))));
        }
        return sends;
    }

    static List<Future<RecordMetadata>> sendValues(
            KafkaProducer<String, String> producer, String topic, String prefix, int from, int to) {
        List<Future<RecordMetadata>> sends = new ArrayList<>();
        for (int i = from; i < to; i++) {
            sends.add(producer.send(new ProducerRecord<>(topic, prefix + i)));
        }
        return sends;
    }

    static void awaitAll(List<? extends Future<?>> sends) throws Exception {
        for (Future<?> send : sends) {
            send.get(WAIT.toSeconds(), TimeUnit.SECONDS);
        }
    }

    /** Reads {@code topics} from the start until {@code expected} records came; closes the consumer. */
    static List<ConsumerRecord<String, String>> consumeAll(
            KafkaConsumer<String, String> consumer, List<String> topics, int expected) {
        List<ConsumerRecord<String, String>> records = new ArrayList<>();
        try (consumer) {
            List<TopicPartition> partitions = new ArrayList<>();
            for (String topic : topics) {
                consumer.partitionsFor(topic, WAIT)
                        .forEach(p -> partitions.add(new TopicPartition(topic, p.partition())));
            }
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            long deadline = System.nanoTime() + WAIT.toNanos();
            while (records.size() < expected && System.nanoTime() < deadline) {
                consumer.poll(Duration.ofMillis(200)).forEach(records::add);
            }
            // A little longer, to catch records beyond those expected.
            consumer.poll(Duration.ofMillis(300)).forEach(records::add);
        }
        assertEquals(expected, records.size(), "records read from " + topics);
        return records;
    }

    static void assertNumberedInOrder(List<ConsumerRecord<String, String>> records, int partitions, int total) {
        Map<Integer, List<Integer>> byPartition = new HashMap<>();
        records.forEach(r -> byPartition
                .computeIfAbsent(r.partition(), p -> new ArrayList<>())
                .add(Integer.parseInt(r.value())));
        int count = 0;
        for (int partition = 0; partition < partitions; partition++) {
            List<Integer> values = byPartition.getOrDefault(partition, List.of());
            for (int i = 0; i < values.size(); i++) {
                assertEquals(partition + partitions * i, values.get(i), "partition " + partition + ", record " + i);
            }
            count += values.size();
        }
        assertEquals(total, count);
    }

    static void await(java.util.function.BooleanSupplier condition, String what) throws InterruptedException {
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("timed out waiting for " + what);
            }
            Thread.sleep(50);
        }
    }

    static String unique(String prefix) {
        return prefix + "-" + System.nanoTime();
    }
}
