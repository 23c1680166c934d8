package io.sluice.server.it.kafka;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.common.utils.AppInfoParser;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/**
 * The main class of a child JVM that has another kafka-clients version on its classpath (see
 * {@link KafkaClientsIT}): an admin client, an idempotent and a transactional producer and a
 * read_committed consumer through Sluice. Uses only API that kafka-clients 3.x and 4.x share.
 * Exits 0 when every record committed came back and no aborted one did.
 *
 * <p>Arguments: {@code BOOTSTRAP TOPIC}.
 */
public final class OlderClientScenario {

    private static final int RECORDS = 1_000;

    private OlderClientScenario() {}

    public static void main(String[] args) throws Exception {
        String bootstrap = args[0];
        String topic = args[1];
        System.out.println("kafka-clients " + AppInfoParser.getVersion());
        Properties common = new Properties();
        common.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        try (Admin admin = Admin.create(common)) {
            admin.createTopics(List.of(new NewTopic(topic, 2, (short) 3))).all().get(60, TimeUnit.SECONDS);
            for (Node node : admin.describeCluster().nodes().get(60, TimeUnit.SECONDS)) {
                System.out.println("node " + node.id() + " at " + node.host() + ":" + node.port());
            }
        }
        Properties producerProps = new Properties();
        producerProps.putAll(common);
        producerProps.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "true");
        producerProps.put(ProducerConfig.ACKS_CONFIG, "all");
        try (KafkaProducer<String, String> producer =
                new KafkaProducer<>(producerProps, new StringSerializer(), new StringSerializer())) {
            List<Future<RecordMetadata>> sends = new ArrayList<>();
            for (int i = 0; i < RECORDS; i++) {
                sends.add(producer.send(new ProducerRecord<>(topic, "plain-" + i)));
            }
            for (Future<RecordMetadata> send : sends) {
                send.get(60, TimeUnit.SECONDS);
            }
        }
        producerProps.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, topic + "-tx");
        try (KafkaProducer<String, String> producer =
                new KafkaProducer<>(producerProps, new StringSerializer(), new StringSerializer())) {
            producer.initTransactions();
            producer.beginTransaction();
            for (int i = 0; i < 10; i++) {
                producer.send(new ProducerRecord<>(topic, "committed-" + i));
            }
            producer.commitTransaction();
            producer.beginTransaction();
            for (int i = 0; i < 5; i++) {
                producer.send(new ProducerRecord<>(topic, "aborted-" + i));
            }
            producer.abortTransaction();
        }
        Properties consumerProps = new Properties();
        consumerProps.putAll(common);
        consumerProps.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        Set<String> values = new HashSet<>();
        try (KafkaConsumer<String, String> consumer =
                new KafkaConsumer<>(consumerProps, new StringDeserializer(), new StringDeserializer())) {
            List<TopicPartition> partitions = List.of(new TopicPartition(topic, 0), new TopicPartition(topic, 1));
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (values.size() < RECORDS + 10 && System.nanoTime() < deadline) {
                consumer.poll(Duration.ofMillis(200)).forEach(record -> values.add(record.value()));
            }
        }
        boolean aborted = values.stream().anyMatch(value -> value.startsWith("aborted-"));
        System.out.println(
                "read " + values.size() + " distinct committed records" + (aborted ? ", and aborted ones" : ""));
        System.exit(values.size() == RECORDS + 10 && !aborted ? 0 : 1);
    }
}
