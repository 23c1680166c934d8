package io.sluice.kafka.testing;

import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.compress.Compression;
import org.apache.kafka.common.message.CreateTopicsResponseData;
import org.apache.kafka.common.message.DescribeClusterResponseData;
import org.apache.kafka.common.message.DescribeTopicPartitionsResponseData;
import org.apache.kafka.common.message.FetchResponseData;
import org.apache.kafka.common.message.FindCoordinatorResponseData;
import org.apache.kafka.common.message.MetadataResponseData;
import org.apache.kafka.common.message.ProduceResponseData;
import org.apache.kafka.common.message.ShareAcknowledgeResponseData;
import org.apache.kafka.common.message.ShareFetchResponseData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.ApiMessage;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.record.internal.MemoryRecords;
import org.apache.kafka.common.record.internal.SimpleRecord;

import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * Responses as a three-broker cluster would give them, built with kafka-clients' message classes:
 * brokers 0, 1 and 2 at {@code broker-N.kafka.internal:909(2+N)}, topic {@code orders} with id
 * {@link #ORDERS_ID}. Optional fields are set only in the versions that carry them.
 */
public final class BrokerResponses {

    public static final String UPSTREAM_DOMAIN = ".kafka.internal";
    public static final Uuid ORDERS_ID = Uuid.fromString("yfyqHNa7Ra2DvIH3YuPvhQ");

    private BrokerResponses() {}

    public static String host(int nodeId) {
        return "broker-" + nodeId + UPSTREAM_DOMAIN;
    }

    public static int port(int nodeId) {
        return 9092 + nodeId;
    }

    /** The response of {@code api} v{@code version}; node endpoints (where the version has them) when asked. */
    public static ApiMessage of(ApiKeys api, short version, boolean withNodeEndpoints) {
        return switch (api) {
            case METADATA -> metadata(version);
            case FIND_COORDINATOR -> findCoordinator(version);
            case DESCRIBE_CLUSTER -> describeCluster();
            case PRODUCE -> produce(version, withNodeEndpoints);
            case FETCH -> fetch(version, withNodeEndpoints);
            case SHARE_FETCH -> shareFetch(withNodeEndpoints);
            case SHARE_ACKNOWLEDGE -> shareAcknowledge(withNodeEndpoints);
            case CREATE_TOPICS -> createTopics();
            case DESCRIBE_TOPIC_PARTITIONS -> describeTopicPartitions();
            default -> throw new IllegalArgumentException("no response built for " + api);
        };
    }

    /** CreateTopics v7+: topic {@code orders} created with {@link #ORDERS_ID}. */
    public static CreateTopicsResponseData createTopics() {
        CreateTopicsResponseData data = new CreateTopicsResponseData();
        data.topics()
                .add(new CreateTopicsResponseData.CreatableTopicResult()
                        .setName("orders")
                        .setTopicId(ORDERS_ID)
                        .setNumPartitions(3)
                        .setReplicationFactor((short) 3));
        return data;
    }

    /** DescribeTopicPartitions v0: topic {@code orders}, {@link #ORDERS_ID}, one partition led by node 1. */
    public static DescribeTopicPartitionsResponseData describeTopicPartitions() {
        DescribeTopicPartitionsResponseData data = new DescribeTopicPartitionsResponseData();
        DescribeTopicPartitionsResponseData.DescribeTopicPartitionsResponseTopic topic =
                new DescribeTopicPartitionsResponseData.DescribeTopicPartitionsResponseTopic()
                        .setName("orders")
                        .setTopicId(ORDERS_ID);
        topic.partitions()
                .add(new DescribeTopicPartitionsResponseData.DescribeTopicPartitionsResponsePartition()
                        .setPartitionIndex(0)
                        .setLeaderId(1)
                        .setReplicaNodes(List.of(1))
                        .setIsrNodes(List.of(1)));
        data.topics().add(topic);
        return data;
    }

    public static MetadataResponseData metadata(short version) {
        MetadataResponseData data = new MetadataResponseData();
        for (int id = 0; id < 3; id++) {
            data.brokers()
                    .add(new MetadataResponseData.MetadataResponseBroker()
                            .setNodeId(id)
                            .setHost(host(id))
                            .setPort(port(id))
                            .setRack(version >= 1 ? "rack-" + id : null));
        }
        if (version >= 1) {
            data.setControllerId(1);
        }
        if (version >= 2) {
            data.setClusterId("cluster-1");
        }
        MetadataResponseData.MetadataResponseTopic orders = new MetadataResponseData.MetadataResponseTopic()
                .setName("orders")
                .setPartitions(List.of(
                        new MetadataResponseData.MetadataResponsePartition()
                                .setPartitionIndex(0)
                                .setLeaderId(0)
                                .setReplicaNodes(List.of(0, 1))
                                .setIsrNodes(List.of(0, 1)),
                        new MetadataResponseData.MetadataResponsePartition()
                                .setPartitionIndex(1)
                                .setLeaderId(2)
                                .setReplicaNodes(List.of(2, 0))
                                .setIsrNodes(List.of(2))));
        MetadataResponseData.MetadataResponseTopic missing = new MetadataResponseData.MetadataResponseTopic()
                .setName("missing")
                .setErrorCode(Errors.UNKNOWN_TOPIC_OR_PARTITION.code());
        if (version >= 10) {
            orders.setTopicId(ORDERS_ID);
        }
        data.topics().add(orders);
        data.topics().add(missing);
        return data;
    }

    public static FindCoordinatorResponseData findCoordinator(short version) {
        FindCoordinatorResponseData data = new FindCoordinatorResponseData();
        if (version < 4) {
            return data.setNodeId(1).setHost(host(1)).setPort(port(1));
        }
        data.coordinators()
                .add(new FindCoordinatorResponseData.Coordinator()
                        .setKey("group-a")
                        .setNodeId(1)
                        .setHost(host(1))
                        .setPort(port(1)));
        data.coordinators()
                .add(new FindCoordinatorResponseData.Coordinator()
                        .setKey("group-b")
                        .setNodeId(-1)
                        .setHost("")
                        .setPort(-1)
                        .setErrorCode(Errors.COORDINATOR_NOT_AVAILABLE.code()));
        return data;
    }

    /** A coordinator lookup that failed: no node, as the broker writes it. */
    public static FindCoordinatorResponseData noCoordinator() {
        return new FindCoordinatorResponseData()
                .setErrorCode(Errors.COORDINATOR_NOT_AVAILABLE.code())
                .setNodeId(-1)
                .setHost("")
                .setPort(-1);
    }

    public static DescribeClusterResponseData describeCluster() {
        DescribeClusterResponseData data =
                new DescribeClusterResponseData().setClusterId("cluster-1").setControllerId(1);
        for (int id = 0; id < 3; id++) {
            data.brokers()
                    .add(new DescribeClusterResponseData.DescribeClusterBroker()
                            .setBrokerId(id)
                            .setHost(host(id))
                            .setPort(port(id))
                            .setRack("rack-" + id));
        }
        return data;
    }

    public static ProduceResponseData produce(short version, boolean withNodeEndpoints) {
        ProduceResponseData.TopicProduceResponse topic = new ProduceResponseData.TopicProduceResponse()
                .setPartitionResponses(List.of(
                        new ProduceResponseData.PartitionProduceResponse()
                                .setIndex(0)
                                .setBaseOffset(41),
                        new ProduceResponseData.PartitionProduceResponse()
                                .setIndex(1)
                                .setErrorCode(Errors.NOT_LEADER_OR_FOLLOWER.code())
                                .setBaseOffset(-1)));
        if (version >= 13) {
            topic.setTopicId(ORDERS_ID);
        } else {
            topic.setName("orders");
        }
        ProduceResponseData data = new ProduceResponseData().setThrottleTimeMs(version >= 1 ? 3 : 0);
        data.responses().add(topic);
        if (withNodeEndpoints && version >= 10) {
            topic.partitionResponses()
                    .get(1)
                    .setCurrentLeader(new ProduceResponseData.LeaderIdAndEpoch()
                            .setLeaderId(2)
                            .setLeaderEpoch(5));
            data.nodeEndpoints()
                    .add(new ProduceResponseData.NodeEndpoint()
                            .setNodeId(2)
                            .setHost(host(2))
                            .setPort(port(2))
                            .setRack("rack-2"));
        }
        return data;
    }

    public static FetchResponseData fetch(short version, boolean withNodeEndpoints) {
        FetchResponseData.FetchableTopicResponse topic = new FetchResponseData.FetchableTopicResponse()
                .setPartitions(List.of(
                        new FetchResponseData.PartitionData()
                                .setPartitionIndex(0)
                                .setHighWatermark(2)
                                .setRecords(records()),
                        new FetchResponseData.PartitionData()
                                .setPartitionIndex(1)
                                .setErrorCode(Errors.NOT_LEADER_OR_FOLLOWER.code())
                                .setRecords(MemoryRecords.EMPTY)));
        if (version >= 13) {
            topic.setTopicId(ORDERS_ID);
        } else {
            topic.setTopic("orders");
        }
        FetchResponseData data = new FetchResponseData().setResponses(List.of(topic));
        if (version >= 7) {
            data.setSessionId(17);
        }
        if (withNodeEndpoints && version >= 16) {
            topic.partitions()
                    .get(1)
                    .setCurrentLeader(new FetchResponseData.LeaderIdAndEpoch()
                            .setLeaderId(2)
                            .setLeaderEpoch(5));
            data.nodeEndpoints()
                    .add(new FetchResponseData.NodeEndpoint()
                            .setNodeId(2)
                            .setHost(host(2))
                            .setPort(port(2))
                            .setRack("rack-2"));
        }
        return data;
    }

    public static ShareFetchResponseData shareFetch(boolean withNodeEndpoints) {
        ShareFetchResponseData data = new ShareFetchResponseData().setAcquisitionLockTimeoutMs(30_000);
        ShareFetchResponseData.ShareFetchableTopicResponse topic =
                new ShareFetchResponseData.ShareFetchableTopicResponse()
                        .setTopicId(ORDERS_ID)
                        .setPartitions(List.of(
                                new ShareFetchResponseData.PartitionData()
                                        .setPartitionIndex(0)
                                        .setRecords(records())
                                        .setAcquiredRecords(List.of(new ShareFetchResponseData.AcquiredRecords()
                                                .setFirstOffset(0)
                                                .setLastOffset(1)
                                                .setDeliveryCount((short) 1))),
                                new ShareFetchResponseData.PartitionData()
                                        .setPartitionIndex(1)
                                        .setErrorCode(Errors.NOT_LEADER_OR_FOLLOWER.code())
                                        .setRecords(MemoryRecords.EMPTY)
                                        .setCurrentLeader(new ShareFetchResponseData.LeaderIdAndEpoch()
                                                .setLeaderId(2)
                                                .setLeaderEpoch(5))));
        data.responses().add(topic);
        if (withNodeEndpoints) {
            data.nodeEndpoints()
                    .add(new ShareFetchResponseData.NodeEndpoint()
                            .setNodeId(2)
                            .setHost(host(2))
                            .setPort(port(2)));
        }
        return data;
    }

    public static ShareAcknowledgeResponseData shareAcknowledge(boolean withNodeEndpoints) {
        ShareAcknowledgeResponseData data = new ShareAcknowledgeResponseData();
        ShareAcknowledgeResponseData.ShareAcknowledgeTopicResponse topic =
                new ShareAcknowledgeResponseData.ShareAcknowledgeTopicResponse()
                        .setTopicId(ORDERS_ID)
                        .setPartitions(List.of(new ShareAcknowledgeResponseData.PartitionData()
                                .setPartitionIndex(1)
                                .setErrorCode(Errors.NOT_LEADER_OR_FOLLOWER.code())
                                .setCurrentLeader(new ShareAcknowledgeResponseData.LeaderIdAndEpoch()
                                        .setLeaderId(2)
                                        .setLeaderEpoch(5))));
        data.responses().add(topic);
        if (withNodeEndpoints) {
            data.nodeEndpoints()
                    .add(new ShareAcknowledgeResponseData.NodeEndpoint()
                            .setNodeId(2)
                            .setHost(host(2))
                            .setPort(port(2))
                            .setRack("rack-2"));
        }
        return data;
    }

    /** Two records in one batch, as a fetch returns them. */
    public static MemoryRecords records() {
        return MemoryRecords.withRecords(
                Compression.NONE,
                new SimpleRecord("k1".getBytes(StandardCharsets.UTF_8), "first".getBytes(StandardCharsets.UTF_8)),
                new SimpleRecord("k2".getBytes(StandardCharsets.UTF_8), "second".getBytes(StandardCharsets.UTF_8)));
    }
}
