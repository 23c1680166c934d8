package io.sluice.kafka.codec;

import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.message.AlterConfigsRequestData;
import org.apache.kafka.common.message.CreatePartitionsRequestData;
import org.apache.kafka.common.message.CreateTopicsRequestData;
import org.apache.kafka.common.message.DeleteRecordsRequestData;
import org.apache.kafka.common.message.DeleteTopicsRequestData;
import org.apache.kafka.common.message.DescribeConfigsRequestData;
import org.apache.kafka.common.message.DescribeProducersRequestData;
import org.apache.kafka.common.message.DescribeTopicPartitionsRequestData;
import org.apache.kafka.common.message.ElectLeadersRequestData;
import org.apache.kafka.common.message.IncrementalAlterConfigsRequestData;
import org.apache.kafka.common.message.ListOffsetsRequestData;
import org.apache.kafka.common.message.MetadataRequestData;
import org.apache.kafka.common.message.OffsetCommitRequestData;
import org.apache.kafka.common.message.OffsetDeleteRequestData;
import org.apache.kafka.common.message.OffsetFetchRequestData;
import org.apache.kafka.common.message.OffsetForLeaderEpochRequestData;
import org.apache.kafka.common.message.TxnOffsetCommitRequestData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.ApiMessage;

import java.util.List;

/** A request of each API {@link RequestTopics} reads, naming a topic, as a client writes it. */
final class TopicNamingRequests {

    /** The APIs whose requests name topics, in a fixed order for the fuzz test's first byte. */
    static final List<ApiKeys> APIS = List.copyOf(RequestTopics.NAMING);

    private TopicNamingRequests() {}

    /** The latest version of {@code api} whose requests name topics by name (later offset requests name them by id). */
    static short version(ApiKeys api) {
        return switch (api) {
            case OFFSET_COMMIT -> 9;
            case OFFSET_FETCH -> 8;
            default -> api.latestVersion();
        };
    }

    /** A request of {@code api} naming {@code topic}, to be written as {@link #version}. */
    static ApiMessage naming(ApiKeys api, String topic) {
        return switch (api) {
            case METADATA ->
                new MetadataRequestData()
                        .setTopics(List.of(new MetadataRequestData.MetadataRequestTopic().setName(topic)));
            case LIST_OFFSETS ->
                new ListOffsetsRequestData()
                        .setTopics(List.of(new ListOffsetsRequestData.ListOffsetsTopic().setName(topic)));
            case OFFSET_COMMIT ->
                new OffsetCommitRequestData()
                        .setGroupId("g")
                        .setTopics(List.of(new OffsetCommitRequestData.OffsetCommitRequestTopic().setName(topic)));
            case OFFSET_FETCH ->
                new OffsetFetchRequestData()
                        .setGroups(List.of(new OffsetFetchRequestData.OffsetFetchRequestGroup()
                                .setGroupId("g")
                                .setTopics(List.of(
                                        new OffsetFetchRequestData.OffsetFetchRequestTopics().setName(topic)))));
            case OFFSET_FOR_LEADER_EPOCH -> {
                OffsetForLeaderEpochRequestData request = new OffsetForLeaderEpochRequestData();
                request.topics().add(new OffsetForLeaderEpochRequestData.OffsetForLeaderTopic().setTopic(topic));
                yield request;
            }
            case OFFSET_DELETE -> {
                OffsetDeleteRequestData request = new OffsetDeleteRequestData().setGroupId("g");
                request.topics().add(new OffsetDeleteRequestData.OffsetDeleteRequestTopic().setName(topic));
                yield request;
            }
            case TXN_OFFSET_COMMIT ->
                new TxnOffsetCommitRequestData()
                        .setTransactionalId("t")
                        .setGroupId("g")
                        .setTopics(
                                List.of(new TxnOffsetCommitRequestData.TxnOffsetCommitRequestTopic().setName(topic)));
            case DELETE_RECORDS ->
                new DeleteRecordsRequestData()
                        .setTopics(List.of(new DeleteRecordsRequestData.DeleteRecordsTopic().setName(topic)));
            case CREATE_TOPICS -> {
                CreateTopicsRequestData request = new CreateTopicsRequestData();
                request.topics()
                        .add(new CreateTopicsRequestData.CreatableTopic()
                                .setName(topic)
                                .setNumPartitions(1)
                                .setReplicationFactor((short) 1));
                yield request;
            }
            case CREATE_PARTITIONS -> {
                CreatePartitionsRequestData request = new CreatePartitionsRequestData();
                request.topics()
                        .add(new CreatePartitionsRequestData.CreatePartitionsTopic()
                                .setName(topic)
                                .setCount(3));
                yield request;
            }
            case DELETE_TOPICS ->
                new DeleteTopicsRequestData()
                        .setTopics(List.of(new DeleteTopicsRequestData.DeleteTopicState().setName(topic)));
            case DESCRIBE_CONFIGS ->
                new DescribeConfigsRequestData()
                        .setResources(List.of(new DescribeConfigsRequestData.DescribeConfigsResource()
                                .setResourceType(ConfigResource.Type.TOPIC.id())
                                .setResourceName(topic)));
            case ALTER_CONFIGS -> {
                AlterConfigsRequestData request = new AlterConfigsRequestData();
                request.resources()
                        .add(new AlterConfigsRequestData.AlterConfigsResource()
                                .setResourceType(ConfigResource.Type.TOPIC.id())
                                .setResourceName(topic));
                yield request;
            }
            case INCREMENTAL_ALTER_CONFIGS -> {
                IncrementalAlterConfigsRequestData request = new IncrementalAlterConfigsRequestData();
                request.resources()
                        .add(new IncrementalAlterConfigsRequestData.AlterConfigsResource()
                                .setResourceType(ConfigResource.Type.TOPIC.id())
                                .setResourceName(topic));
                yield request;
            }
            case DESCRIBE_PRODUCERS ->
                new DescribeProducersRequestData()
                        .setTopics(List.of(new DescribeProducersRequestData.TopicRequest().setName(topic)));
            case ELECT_LEADERS -> {
                ElectLeadersRequestData request = new ElectLeadersRequestData();
                request.setTopicPartitions(new ElectLeadersRequestData.TopicPartitionsCollection());
                request.topicPartitions().add(new ElectLeadersRequestData.TopicPartitions().setTopic(topic));
                yield request;
            }
            case DESCRIBE_TOPIC_PARTITIONS ->
                new DescribeTopicPartitionsRequestData()
                        .setTopics(List.of(new DescribeTopicPartitionsRequestData.TopicRequest().setName(topic)));
            default -> throw new IllegalArgumentException(api + " names no topic");
        };
    }
}
