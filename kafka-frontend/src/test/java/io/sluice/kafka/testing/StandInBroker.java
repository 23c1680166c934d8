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

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Set;

/**
 * The answers of a stand-in for one broker at {@code host:port}, just enough for a Java producer,
 * consumer (assigned partitions) and admin client to go about their ordinary requests: ApiVersions,
 * Metadata (topic {@link #TOPIC}, one partition, this broker its leader), Produce, Fetch (two
 * records from any offset), InitProducerId, FindCoordinator and DescribeCluster, built with
 * kafka-clients' message classes. Not a broker: it exists to drive real clients and Sluice's pipeline.
 */
public final class StandInBroker {

    public static final String TOPIC = "orders";
    public static final Uuid TOPIC_ID = Uuid.fromString("yfyqHNa7Ra2DvIH3YuPvhQ");

    private static final Set<ApiKeys> ANSWERED = Set.of(
            ApiKeys.API_VERSIONS,
            ApiKeys.METADATA,
            ApiKeys.PRODUCE,
            ApiKeys.FETCH,
            ApiKeys.INIT_PRODUCER_ID,
            ApiKeys.FIND_COORDINATOR,
            ApiKeys.DESCRIBE_CLUSTER);

    private final String host;
    private final int port;

    public StandInBroker(String host, int port) {
        this.host = host;
        this.port = port;
    }

    /** Whether requests of {@code api} get an answer. */
    public static boolean answers(ApiKeys api) {
        return ANSWERED.contains(api);
    }

    /** The answer to the request whose header was read and whose body {@code body} holds; null when it wants none (acks=0). */
    public ApiMessage answer(RequestHeader header, ByteBufferAccessor body) {
        short version = header.apiVersion();
        return switch (header.apiKey()) {
            case API_VERSIONS -> {
                ApiVersionsResponseData data = new ApiVersionsResponseData();
                for (ApiKeys key : ANSWERED) {
                    data.apiKeys()
                            .add(new ApiVersionsResponseData.ApiVersion()
                                    .setApiKey(key.id)
                                    .setMinVersion(key.oldestVersion())
                                    .setMaxVersion(key.latestVersion(false)));
                }
                yield data;
            }
            case METADATA -> metadata(new MetadataRequestData(body, version));
            case INIT_PRODUCER_ID ->
                new InitProducerIdResponseData().setProducerId(1000).setProducerEpoch((short) 0);
            case PRODUCE -> produce(new ProduceRequestData(body, version), version);
            case FETCH -> fetch(new FetchRequestData(body, version), version);
            case FIND_COORDINATOR -> findCoordinator(new FindCoordinatorRequestData(body, version), version);
            case DESCRIBE_CLUSTER -> {
                DescribeClusterResponseData data = new DescribeClusterResponseData()
                        .setClusterId("recording")
                        .setControllerId(0);
                data.brokers()
                        .add(new DescribeClusterResponseData.DescribeClusterBroker()
                                .setBrokerId(0)
                                .setHost(host)
                                .setPort(port));
                yield data;
            }
            default -> throw new IllegalStateException("not answered: " + header.apiKey());
        };
    }

    private MetadataResponseData metadata(MetadataRequestData request) {
        MetadataResponseData data =
                new MetadataResponseData().setClusterId("recording").setControllerId(0);
        data.brokers()
                .add(new MetadataResponseData.MetadataResponseBroker()
                        .setNodeId(0)
                        .setHost(host)
                        .setPort(port));
        data.topics()
                .add(new MetadataResponseData.MetadataResponseTopic()
                        .setName(TOPIC)
                        .setTopicId(TOPIC_ID)
                        .setPartitions(List.of(new MetadataResponseData.MetadataResponsePartition()
                                .setPartitionIndex(0)
                                .setLeaderId(0)
                                .setLeaderEpoch(1)
                                .setReplicaNodes(List.of(0))
                                .setIsrNodes(List.of(0)))));
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
                response.partitionResponses()
                        .add(new ProduceResponseData.PartitionProduceResponse()
                                .setIndex(partition.index())
                                .setBaseOffset(0));
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
                response.partitions()
                        .add(new FetchResponseData.PartitionData()
                                .setPartitionIndex(partition.partition())
                                .setHighWatermark(offset + 2)
                                .setLastStableOffset(offset + 2)
                                .setRecords(MemoryRecords.withRecords(
                                        offset,
                                        Compression.NONE,
                                        new SimpleRecord(("record " + offset).getBytes(StandardCharsets.UTF_8)),
                                        new SimpleRecord(
                                                ("record " + (offset + 1)).getBytes(StandardCharsets.UTF_8)))));
            }
            data.responses().add(response);
        }
        return data;
    }

    private FindCoordinatorResponseData findCoordinator(FindCoordinatorRequestData request, short version) {
        FindCoordinatorResponseData data = new FindCoordinatorResponseData();
        if (version < 4) {
            return data.setNodeId(0).setHost(host).setPort(port);
        }
        for (String key : request.coordinatorKeys()) {
            data.coordinators()
                    .add(new FindCoordinatorResponseData.Coordinator()
                            .setKey(key)
                            .setNodeId(0)
                            .setHost(host)
                            .setPort(port));
        }
        return data;
    }
}
