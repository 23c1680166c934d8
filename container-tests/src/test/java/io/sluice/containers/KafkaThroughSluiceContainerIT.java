package io.sluice.containers;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The Kafka integration contract with everything but the client in containers: the stock Java
 * client (kafka-clients) on the host talks to Sluice's image, which forwards to a single-node
 * Kafka (KRaft) in another container. The broker publishes no port and advertises its network
 * name, which the host cannot resolve, so whatever works here went through Sluice's bootstrap and
 * node ports.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class KafkaThroughSluiceContainerIT {

    private SluiceContainer sluice;

    @BeforeAll
    void startSluice() {
        KafkaBrokerContainer broker = SharedContainers.kafkaBroker();
        sluice = SluiceContainer.inFrontOfKafka(
                        SharedContainers.network(), broker.bootstrapOnNetwork(), KafkaBrokerImage.nodeId())
                .untilReady();
        sluice.start();
    }

    @AfterAll
    void stopSluice() {
        if (sluice != null) {
            sluice.stop();
        }
    }

    @Test
    void recordsProducedThroughSluiceAreConsumedThroughSluiceInOrder() throws Exception {
        String topic = "roundtrip-" + System.nanoTime();
        int count = 100;
        try (Admin admin = Admin.create(props())) {
            Collection<Node> nodes = admin.describeCluster().nodes().get(30, TimeUnit.SECONDS);
            assertEquals(
                    List.of(sluice.getHost() + ":" + sluice.kafkaNodePort(KafkaBrokerImage.nodeId())),
                    nodes.stream().map(node -> node.host() + ":" + node.port()).toList(),
                    "the client is told Sluice's node port, never the broker's address");
            admin.createTopics(List.of(new NewTopic(topic, 1, (short) 1))).all().get(30, TimeUnit.SECONDS);
        }
        List<String> sent = IntStream.range(0, count).mapToObj(i -> "r-" + i).toList();
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(
                        props(ProducerConfig.LINGER_MS_CONFIG, "5"), new StringSerializer(), new StringSerializer());
                KafkaConsumer<String, String> consumer = new KafkaConsumer<>(
                        props(
                                ConsumerConfig.GROUP_ID_CONFIG,
                                "audit",
                                ConsumerConfig.AUTO_OFFSET_RESET_CONFIG,
                                "earliest"),
                        new StringDeserializer(),
                        new StringDeserializer())) {
            List<Future<RecordMetadata>> sends = new ArrayList<>();
            for (String value : sent) {
                sends.add(producer.send(new ProducerRecord<>(topic, value)));
            }
            for (int i = 0; i < count; i++) {
                assertEquals(
                        i, sends.get(i).get(30, TimeUnit.SECONDS).offset(), "record " + i + " was appended in order");
            }
            consumer.subscribe(List.of(topic));
            List<String> received = new ArrayList<>();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (received.size() < count && System.nanoTime() < deadline) {
                for (ConsumerRecord<String, String> record : consumer.poll(Duration.ofMillis(500))) {
                    received.add(record.value());
                }
            }
            assertEquals(sent, received, "every record arrived once, in order");

            SluiceAdmin admin = sluice.admin();
            assertTrue(
                    admin.series("sluice_connections{protocol=\"kafka\"}") >= 2,
                    "the producer's and the consumer's connections are Sluice's Kafka connections");
            assertTrue(
                    admin.series("sluice_requests_total{api=\"produce\",protocol=\"kafka\"}") >= 1,
                    "Sluice counted the produce requests");
            assertTrue(
                    admin.series("sluice_requests_total{api=\"fetch\",protocol=\"kafka\"}") >= 1,
                    "and the fetch requests");
        }
    }

    @Test
    void readinessCoversTheKafkaUpstream() {
        SluiceAdmin admin = sluice.admin();
        assertEquals(200, admin.get("/readyz").statusCode(), "ready in front of the broker");
        assertEquals(1, admin.series("sluice_ready"));

        // The broker's own host, on a port nothing listens on: only the Kafka upstream is missing.
        String closedPort = KafkaBrokerImage.host() + ":" + (KafkaBrokerImage.port() + 7);
        try (SluiceContainer orphaned =
                SluiceContainer.inFrontOfKafka(SharedContainers.network(), closedPort, KafkaBrokerImage.nodeId())) {
            orphaned.start();
            SluiceAdmin orphanedAdmin = orphaned.admin();
            assertEquals(200, orphanedAdmin.get("/healthz").statusCode(), "it serves");
            assertEquals(503, orphanedAdmin.get("/readyz").statusCode(), "but is not ready without its Kafka upstream");
            assertEquals(0, orphanedAdmin.series("sluice_ready"));
        }
    }

    private Properties props(String... settings) {
        Properties props = new Properties();
        props.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, sluice.kafkaBootstrap());
        for (int i = 0; i + 1 < settings.length; i += 2) {
            props.put(settings[i], settings[i + 1]);
        }
        return props;
    }
}
