package io.sluice.server.it.kafka;

import io.sluice.server.it.TcpTee;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.protocol.ApiKeys;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Records what real kafka-clients 4.x producers (plain, acks=0, transactional, compressed), a
 * consumer group and an admin client say through Sluice to the real cluster, relayed by a
 * {@link TcpTee} in front of each of Sluice's ports (Sluice listens on 127.0.0.2 and tells clients
 * 127.0.0.1, where the relays are). It writes kafka-frontend's fuzz seed corpora: with
 * {@code -Dsluice.corpus.dir=<repo>/kafka-frontend/src/test/resources} (absolute) it writes
 * <ul>
 *   <li>the first request of each API and version to {@code codec/RequestFuzzTestInputs/clientBytes/},</li>
 *   <li>the first response of each API and version, after the request's key and version, to
 *       {@code routing/ResponseFuzzTestInputs/brokerResponse/},</li>
 *   <li>each connection's client bytes to {@code codec/RequestFuzzTestInputs/clientBytes/} and
 *       {@code connection/ClientPipelineFuzzTestInputs/clientBytes/}.</li>
 * </ul>
 * Without the property it writes them under {@code target/corpus}.
 */
class KafkaCorpusCaptureIT {

    private static final int MAX_CLIENT_STREAM = 16 * 1024;
    private static final String PREFIX = "cluster-";

    @Test
    void recordsRealClientsThroughSluiceToARealCluster() throws Exception {
        BrokersOnlySluiceReaches brokers = BrokersOnlySluiceReaches.get();
        List<TcpTee.Recording> recordings = new ArrayList<>();
        try (SluiceForKafka sluice = SluiceForKafka.startOn("127.0.0.2", brokers, brokers.plaintextBootstrap())) {
            List<TcpTee> tees = new ArrayList<>();
            try {
                tees.add(relay(sluice.kafkaPort));
                for (int node : brokers.cluster.nodeIds()) {
                    tees.add(relay(sluice.nodePortBase + node));
                }
                exerciseClients(new KafkaClients(sluice.bootstrap()));
            } finally {
                for (TcpTee tee : tees) {
                    recordings.addAll(tee.recordings);
                    tee.close();
                }
            }
        }
        Set<String> seen = writeCorpus(recordings);
        for (ApiKeys wanted : List.of(
                ApiKeys.API_VERSIONS,
                ApiKeys.METADATA,
                ApiKeys.PRODUCE,
                ApiKeys.FETCH,
                ApiKeys.FIND_COORDINATOR,
                ApiKeys.JOIN_GROUP,
                ApiKeys.SYNC_GROUP,
                ApiKeys.OFFSET_COMMIT,
                ApiKeys.INIT_PRODUCER_ID,
                ApiKeys.END_TXN,
                ApiKeys.CREATE_TOPICS,
                ApiKeys.LIST_OFFSETS)) {
            assertTrue(
                    seen.stream().anyMatch(name -> name.startsWith(PREFIX + "client-" + wanted.name + "-")),
                    "no " + wanted.name + " recorded; saw " + seen);
        }
    }

    private static TcpTee relay(int port) throws IOException {
        return new TcpTee(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), "127.0.0.2", port);
    }

    private static void exerciseClients(KafkaClients clients) throws Exception {
        String topic = KafkaClientsIT.unique("corpus");
        clients.createTopics(2, topic);
        try (KafkaProducer<String, String> producer = clients.producer(ProducerConfig.COMPRESSION_TYPE_CONFIG, "lz4")) {
            KafkaClientsIT.awaitAll(KafkaClientsIT.sendNumbered(producer, topic, 2, 0, 20));
        }
        try (KafkaProducer<String, String> fireAndForget =
                clients.producer(ProducerConfig.ACKS_CONFIG, "0", ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "false")) {
            fireAndForget.send(new ProducerRecord<>(topic, "acks-0")).get();
        }
        try (KafkaProducer<String, String> transactional =
                clients.producer(ProducerConfig.TRANSACTIONAL_ID_CONFIG, KafkaClientsIT.unique("corpus-tx"))) {
            transactional.initTransactions();
            transactional.beginTransaction();
            transactional.send(new ProducerRecord<>(topic, "in-a-transaction"));
            transactional.commitTransaction();
        }
        try (KafkaConsumer<String, String> consumer =
                clients.consumer(ConsumerConfig.GROUP_ID_CONFIG, KafkaClientsIT.unique("corpus-group"))) {
            consumer.subscribe(List.of(topic));
            int received = 0;
            long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
            while (received < 20 && System.nanoTime() < deadline) {
                received += consumer.poll(Duration.ofMillis(200)).count();
            }
            consumer.commitSync();
        }
    }

    /** Writes the corpus files; returns the names of those written. */
    private static Set<String> writeCorpus(List<TcpTee.Recording> recordings) throws IOException {
        Path root = Path.of(System.getProperty("sluice.corpus.dir", "target/corpus"));
        Path requests =
                Files.createDirectories(root.resolve("io/sluice/kafka/codec/RequestFuzzTestInputs/clientBytes"));
        Path responses =
                Files.createDirectories(root.resolve("io/sluice/kafka/routing/ResponseFuzzTestInputs/brokerResponse"));
        Path streams = Files.createDirectories(
                root.resolve("io/sluice/kafka/connection/ClientPipelineFuzzTestInputs/clientBytes"));
        Set<String> written = new TreeSet<>();
        int connection = 0;
        for (TcpTee.Recording recording : recordings) {
            byte[] client = recording.clientBytes();
            if (client.length == 0) {
                continue;
            }
            connection++;
            Map<Integer, short[]> requestsById = new HashMap<>();
            for (byte[] frame : frames(client)) {
                ByteBuffer header = ByteBuffer.wrap(frame);
                short key = header.getShort(4);
                short version = header.getShort(6);
                requestsById.put(header.getInt(8), new short[] {key, version});
                write(requests, PREFIX + "client-" + ApiKeys.forId(key).name + "-v" + version, frame, written);
            }
            for (byte[] frame : frames(recording.serverBytes())) {
                short[] request = requestsById.get(ByteBuffer.wrap(frame).getInt(4));
                if (request != null) {
                    byte[] input = ByteBuffer.allocate(4 + frame.length)
                            .putShort(request[0])
                            .putShort(request[1])
                            .put(frame)
                            .array();
                    write(
                            responses,
                            PREFIX + "broker-" + ApiKeys.forId(request[0]).name + "-v" + request[1],
                            input,
                            written);
                }
            }
            byte[] stream = Arrays.copyOf(client, Math.min(client.length, MAX_CLIENT_STREAM));
            write(requests, PREFIX + "connection-" + connection, stream, written);
            Files.write(streams.resolve(PREFIX + "connection-" + connection), stream);
        }
        return written;
    }

    private static void write(Path dir, String name, byte[] bytes, Set<String> written) throws IOException {
        if (written.add(name)) {
            Files.write(dir.resolve(name), bytes);
        }
    }

    /** The frames of a recorded stream, as their size prefixes say. */
    private static List<byte[]> frames(byte[] stream) {
        List<byte[]> frames = new ArrayList<>();
        ByteBuffer buffer = ByteBuffer.wrap(stream);
        while (buffer.remaining() >= 12) {
            int size = buffer.getInt(buffer.position());
            if (size < 8 || size > buffer.remaining() - 4) {
                break;
            }
            byte[] frame = new byte[4 + size];
            buffer.get(frame);
            frames.add(frame);
        }
        return frames;
    }
}
