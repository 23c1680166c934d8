package io.sluice.kafka.codec;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.sluice.kafka.connection.KafkaSettings;
import io.sluice.kafka.testing.KafkaFrames;
import io.sluice.kafka.testing.KeepFrames;
import io.sluice.kafka.testing.RecordingBroker;
import io.sluice.kafka.testing.RecordingBroker.Connection;
import io.sluice.relay.connection.FrameDecoder;
import io.sluice.relay.connection.FrameRule;
import io.sluice.testing.LeakCheck;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.ListConsumerGroupOffsetsOptions;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What a real kafka-clients producer, consumer and admin client send, read by Sluice's codec: every
 * request frame comes out of the relay's {@link FrameDecoder} with Kafka's rule and the brokers'
 * default largest request whole, its header reads as Kafka reads it, and Produce requests say the
 * acks the producer was configured with. The clients talk to a
 * {@link RecordingBroker} that records their bytes.
 *
 * <p>It also writes the fuzz seed corpus: with {@code -Dsluice.corpus.dir=src/test/resources}
 * (relative to this module) one file per request API and version to
 * {@code RequestFuzzTestInputs/clientBytes/}, and what the recording broker answered to
 * {@code ResponseFuzzTestInputs/brokerResponse/}. A real cluster will refresh it later.
 */
@ExtendWith(LeakCheck.class)
class RealClientRequestsTest {

    private static final int MAX_STREAM = 16 * 1024;

    @Test
    void readsEveryRequestOfARealProducerConsumerAndAdminClient() throws Exception {
        List<Connection> connections;
        try (RecordingBroker broker = new RecordingBroker()) {
            produce(broker.bootstrap(), "all", 5);
            produce(broker.bootstrap(), "0", 3);
            consume(broker.bootstrap());
            administer(broker.bootstrap());
            connections = broker.connections();
        }

        RequestHeader header = new RequestHeader();
        WireCursor cursor = new WireCursor();
        Set<String> apis = new TreeSet<>();
        Set<Short> acks = new TreeSet<>();
        for (Connection connection : connections) {
            List<ByteBuf> frames = decode(connection.requests());
            assertEquals(connection.requests().size(), frames.size());
            for (int i = 0; i < frames.size(); i++) {
                ByteBuf frame = frames.get(i);
                try {
                    header.read(KafkaFrames.view(frame));
                    ByteBuffer kafkaView = ByteBuffer.wrap(connection.requests().get(i), 4, frame.readableBytes() - 4)
                            .slice();
                    org.apache.kafka.common.requests.RequestHeader kafka =
                            org.apache.kafka.common.requests.RequestHeader.parse(kafkaView);
                    assertEquals(kafka.apiKey().id, header.apiKey());
                    assertEquals(kafka.apiVersion(), header.apiVersion());
                    assertEquals(kafka.correlationId(), header.correlationId());
                    assertEquals(kafka.clientId(), header.clientId(KafkaFrames.view(frame)));
                    assertEquals(4 + kafkaView.position(), header.bodyIndex());
                    apis.add(kafka.apiKey().name);
                    if (kafka.apiKey() == ApiKeys.PRODUCE) {
                        acks.add(ProduceRequestReader.acks(KafkaFrames.view(frame), header, cursor));
                    }
                } finally {
                    frame.release();
                }
            }
        }
        assertTrue(
                apis.containsAll(Set.of(
                        "ApiVersions",
                        "Metadata",
                        "Produce",
                        "Fetch",
                        "InitProducerId",
                        "FindCoordinator",
                        "DescribeCluster")),
                "requests seen: " + apis);
        assertEquals(Set.of((short) -1, (short) 0), acks);
        writeCorpus(connections);
    }

    /** The frames a client-side decoder makes of the connection's bytes, arriving in odd-sized reads. */
    private static List<ByteBuf> decode(List<byte[]> requests) {
        EmbeddedChannel channel = new EmbeddedChannel(
                new FrameDecoder(FrameRule.INT32_SIZE, KafkaSettings.DEFAULT_MAX_REQUEST_SIZE), new KeepFrames());
        ByteBuf stream = Unpooled.buffer();
        requests.forEach(stream::writeBytes);
        while (stream.isReadable()) {
            channel.writeInbound(stream.readRetainedSlice(Math.min(37, stream.readableBytes())));
        }
        stream.release();
        List<ByteBuf> frames = new ArrayList<>();
        for (ByteBuf frame; (frame = channel.readInbound()) != null; ) {
            frames.add(frame);
        }
        channel.finishAndReleaseAll();
        return frames;
    }

    private static void produce(String bootstrap, String acks, int records) {
        Properties props = new Properties();
        props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        props.put(ProducerConfig.ACKS_CONFIG, acks);
        props.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, String.valueOf(acks.equals("all")));
        props.put(ProducerConfig.COMPRESSION_TYPE_CONFIG, acks.equals("all") ? "gzip" : "none");
        props.put(ProducerConfig.CLIENT_ID_CONFIG, "producer-acks-" + acks);
        props.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, "10000");
        try (KafkaProducer<String, String> producer =
                new KafkaProducer<>(props, new StringSerializer(), new StringSerializer())) {
            for (int i = 0; i < records; i++) {
                producer.send(new ProducerRecord<>(RecordingBroker.TOPIC, "key-" + i, "value " + i));
            }
            producer.flush();
        }
    }

    private static void consume(String bootstrap) {
        Properties props = new Properties();
        props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        props.put(ConsumerConfig.CLIENT_ID_CONFIG, "consumer");
        try (KafkaConsumer<String, String> consumer =
                new KafkaConsumer<>(props, new StringDeserializer(), new StringDeserializer())) {
            TopicPartition partition = new TopicPartition(RecordingBroker.TOPIC, 0);
            consumer.assign(List.of(partition));
            consumer.seek(partition, 0);
            int received = 0;
            for (int polls = 0; polls < 50 && received < 4; polls++) {
                ConsumerRecords<String, String> records = consumer.poll(Duration.ofMillis(200));
                received += records.count();
            }
            assertTrue(received >= 4, "consumer received " + received + " records");
        }
    }

    private static void administer(String bootstrap) throws Exception {
        Map<String, Object> config = new HashMap<>();
        config.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        config.put(AdminClientConfig.CLIENT_ID_CONFIG, "admin");
        try (Admin admin = Admin.create(config)) {
            admin.describeCluster().nodes().get();
            admin.listTopics().names().get();
            // The coordinator lookup is what is wanted; the offset fetch after it goes unanswered.
            try {
                admin.listConsumerGroupOffsets("group-1", new ListConsumerGroupOffsetsOptions().timeoutMs(1500))
                        .partitionsToOffsetAndMetadata()
                        .get();
            } catch (java.util.concurrent.ExecutionException expected) {
                // Timed out, as it must.
            }
        }
    }

    private static void writeCorpus(List<Connection> connections) throws IOException {
        Path root = Path.of(System.getProperty("sluice.corpus.dir", "target/corpus"));
        Path requests =
                Files.createDirectories(root.resolve("io/sluice/kafka/codec/RequestFuzzTestInputs/clientBytes"));
        Path responses =
                Files.createDirectories(root.resolve("io/sluice/kafka/routing/ResponseFuzzTestInputs/brokerResponse"));
        Set<String> written = new TreeSet<>();
        int number = 0;
        for (Connection connection : connections) {
            number++;
            ByteBuffer stream = ByteBuffer.allocate(MAX_STREAM);
            for (byte[] frame : connection.requests()) {
                String name = "client-" + ApiKeys.forId(ByteBuffer.wrap(frame).getShort(4)).name + "-v"
                        + ByteBuffer.wrap(frame).getShort(6);
                if (written.add(name)) {
                    Files.write(requests.resolve(name), frame);
                }
                if (stream.remaining() >= frame.length) {
                    stream.put(frame);
                }
            }
            if (stream.position() > 0) {
                Files.write(
                        requests.resolve("client-connection-" + number),
                        Arrays.copyOf(stream.array(), stream.position()));
            }
            for (RecordingBroker.Response response : connection.responses()) {
                String name = "broker-" + ApiKeys.forId(response.apiKey()).name + "-v" + response.apiVersion();
                if (written.add(name)) {
                    Files.write(
                            responses.resolve(name),
                            io.sluice.kafka.testing.ResponseFuzzInput.encode(
                                    response.apiKey(), response.apiVersion(), response.frame()));
                }
            }
        }
    }
}
