package io.sluice.kafka.testing;

import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.compress.Compression;
import org.apache.kafka.common.message.ApiVersionsResponseData;
import org.apache.kafka.common.message.DescribeClusterResponseData;
import org.apache.kafka.common.message.FetchRequestData;
import org.apache.kafka.common.message.FetchResponseData;
import org.apache.kafka.common.message.FindCoordinatorRequestData;
import org.apache.kafka.common.message.FindCoordinatorResponseData;
import org.apache.kafka.common.message.InitProducerIdResponseData;
import org.apache.kafka.common.message.MetadataRequestData;
import org.apache.kafka.common.message.MetadataResponseData;
import org.apache.kafka.common.message.ProduceRequestData;
import org.apache.kafka.common.message.ProduceResponseData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.ApiMessage;
import org.apache.kafka.common.protocol.ByteBufferAccessor;
import org.apache.kafka.common.record.internal.MemoryRecords;
import org.apache.kafka.common.record.internal.SimpleRecord;
import org.apache.kafka.common.requests.RequestHeader;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Set;

/**
 * A stand-in for one broker, just enough for a Java producer, consumer (assigned partitions) and
 * admin client to send their ordinary requests, which it records byte for byte. Its answers are
 * built with kafka-clients' message classes; anything it does not answer closes the connection.
 * Not a broker: it exists to capture what real clients send.
 */
public final class RecordingBroker implements AutoCloseable {

    public static final String TOPIC = "orders";
    public static final Uuid TOPIC_ID = Uuid.fromString("yfyqHNa7Ra2DvIH3YuPvhQ");

    private static final Set<ApiKeys> ANSWERED = Set.of(ApiKeys.API_VERSIONS, ApiKeys.METADATA, ApiKeys.PRODUCE, ApiKeys.FETCH,
            ApiKeys.INIT_PRODUCER_ID, ApiKeys.FIND_COORDINATOR, ApiKeys.DESCRIBE_CLUSTER);

    /** One connection's traffic: each request frame, each response frame sent, size prefixes included. */
    public record Connection(List<byte[]> requests, List<Response> responses) {
    }

    /** A response frame with the API key and version of the request it answers. */
    public record Response(short apiKey, short apiVersion, byte[] frame) {
    }

    private final ServerSocket server;
    private final List<Connection> connections = Collections.synchronizedList(new ArrayList<>());
    private final Thread acceptor;

    public RecordingBroker() throws IOException {
        server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        acceptor = new Thread(this::accept, "recording-broker");
        acceptor.setDaemon(true);
        acceptor.start();
    }

    public String bootstrap() {
        return "127.0.0.1:" + server.getLocalPort();
    }

    /** Every connection so far, in the order they were accepted. */
    public List<Connection> connections() {
        synchronized (connections) {
            return List.copyOf(connections);
        }
    }

    @Override
    public void close() throws IOException {
        server.close();
    }

    private void accept() {
        while (!server.isClosed()) {
            try {
                Socket socket = server.accept();
                Connection connection = new Connection(Collections.synchronizedList(new ArrayList<>()), Collections.synchronizedList(new ArrayList<>()));
                connections.add(connection);
                Thread serve = new Thread(() -> serve(socket, connection), "recording-broker-connection");
                serve.setDaemon(true);
                serve.start();
            } catch (IOException closed) {
                return;
            }
        }
    }

    private void serve(Socket socket, Connection connection) {
        try (socket; DataInputStream in = new DataInputStream(socket.getInputStream());
             DataOutputStream out = new DataOutputStream(socket.getOutputStream())) {
            while (true) {
                int size = in.readInt();
                byte[] frame = new byte[4 + size];
                ByteBuffer.wrap(frame).putInt(size);
                in.readFully(frame, 4, size);
                connection.requests().add(frame);
                ByteBuffer request = ByteBuffer.wrap(frame, 4, size).slice();
                RequestHeader header = RequestHeader.parse(request);
                if (!ANSWERED.contains(header.apiKey())) {
                    return;
                }
                ApiMessage response = answer(header, new ByteBufferAccessor(request));
                if (response == null) {
                    continue;
                }
                byte[] bytes = KafkaFrames.frameBytes(KafkaFrames.response(response, header.apiVersion(), header.correlationId()));
                connection.responses().add(new Response(header.apiKey().id, header.apiVersion(), bytes));
                out.write(bytes);
                out.flush();
            }
        } catch (EOFException | java.net.SocketException closed) {
            // The client went away.
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private ApiMessage answer(RequestHeader header, ByteBufferAccessor body) {
        short version = header.apiVersion();
        return switch (header.apiKey()) {
            case API_VERSIONS -> {
                ApiVersionsResponseData data = new ApiVersionsResponseData();
                for (ApiKeys key : ANSWERED) {
                    data.apiKeys().add(new ApiVersionsResponseData.ApiVersion().setApiKey(key.id)
                            .setMinVersion(key.oldestVersion()).setMaxVersion(key.latestVersion(false)));
                }
                yield data;
            }
            case METADATA -> metadata(new MetadataRequestData(body, version));
            case INIT_PRODUCER_ID -> new InitProducerIdResponseData().setProducerId(1000).setProducerEpoch((short) 0);
            case PRODUCE -> produce(new ProduceRequestData(body, version), version);
            case FETCH -> fetch(new FetchRequestData(body, version), version);
            case FIND_COORDINATOR -> findCoordinator(new FindCoordinatorRequestData(body, version), version);
            case DESCRIBE_CLUSTER -> {
                DescribeClusterResponseData data = new DescribeClusterResponseData().setClusterId("recording").setControllerId(0);
                data.brokers().add(new DescribeClusterResponseData.DescribeClusterBroker().setBrokerId(0).setHost("127.0.0.1").setPort(server.getLocalPort()));
                yield data;
            }
            default -> throw new IllegalStateException("not answered: " + header.apiKey());
        };
    }

    private MetadataResponseData metadata(MetadataRequestData request) {
        MetadataResponseData data = new MetadataResponseData().setClusterId("recording").setControllerId(0);
        data.brokers().add(new MetadataResponseData.MetadataResponseBroker().setNodeId(0).setHost("127.0.0.1").setPort(server.getLocalPort()));
        data.topics().add(new MetadataResponseData.MetadataResponseTopic().setName(TOPIC).setTopicId(TOPIC_ID)
                .setPartitions(List.of(new MetadataResponseData.MetadataResponsePartition()
                        .setPartitionIndex(0).setLeaderId(0).setLeaderEpoch(1).setReplicaNodes(List.of(0)).setIsrNodes(List.of(0)))));
        return data;
    }

    private ProduceResponseData produce(ProduceRequestData request, short version) {
        if (request.acks() == 0) {
            return null;
        }
        ProduceResponseData data = new ProduceResponseData();
        for (ProduceRequestData.TopicProduceData topic : request.topicData()) {
            ProduceResponseData.TopicProduceResponse response = version >= 13
                    ? new ProduceResponseData.TopicProduceResponse().setTopicId(topic.topicId())
                    : new ProduceResponseData.TopicProduceResponse().setName(topic.name());
            for (ProduceRequestData.PartitionProduceData partition : topic.partitionData()) {
                response.partitionResponses().add(new ProduceResponseData.PartitionProduceResponse().setIndex(partition.index()).setBaseOffset(0));
            }
            data.responses().add(response);
        }
        return data;
    }

    private FetchResponseData fetch(FetchRequestData request, short version) {
        FetchResponseData data = new FetchResponseData();
        for (FetchRequestData.FetchTopic topic : request.topics()) {
            FetchResponseData.FetchableTopicResponse response = version >= 13
                    ? new FetchResponseData.FetchableTopicResponse().setTopicId(topic.topicId())
                    : new FetchResponseData.FetchableTopicResponse().setTopic(topic.topic());
            for (FetchRequestData.FetchPartition partition : topic.partitions()) {
                long offset = partition.fetchOffset();
                response.partitions().add(new FetchResponseData.PartitionData().setPartitionIndex(partition.partition())
                        .setHighWatermark(offset + 2).setLastStableOffset(offset + 2)
                        .setRecords(MemoryRecords.withRecords(offset, Compression.NONE,
                                new SimpleRecord(("record " + offset).getBytes(StandardCharsets.UTF_8)),
                                new SimpleRecord(("record " + (offset + 1)).getBytes(StandardCharsets.UTF_8)))));
            }
            data.responses().add(response);
        }
        return data;
    }

    private FindCoordinatorResponseData findCoordinator(FindCoordinatorRequestData request, short version) {
        FindCoordinatorResponseData data = new FindCoordinatorResponseData();
        if (version < 4) {
            return data.setNodeId(0).setHost("127.0.0.1").setPort(server.getLocalPort());
        }
        for (String key : request.coordinatorKeys()) {
            data.coordinators().add(new FindCoordinatorResponseData.Coordinator().setKey(key).setNodeId(0).setHost("127.0.0.1").setPort(server.getLocalPort()));
        }
        return data;
    }
}
