package io.sluice.kafka.codec;

import io.sluice.relay.FrameView;
import org.apache.kafka.common.Uuid;
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

import java.util.EnumSet;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * The topics a request names, for the request rates of topics and prefixes (docs/KAFKA.md,
 * "Request rates"): every API whose request lists topics by name or id (Metadata, ListOffsets,
 * OffsetCommit, OffsetFetch, OffsetForLeaderEpoch, OffsetDelete, TxnOffsetCommit, DeleteRecords,
 * CreateTopics, CreatePartitions, DeleteTopics, DescribeConfigs, AlterConfigs and
 * IncrementalAlterConfigs of topic resources, DescribeProducers, ElectLeaders,
 * DescribeTopicPartitions), each request read whole with kafka-clients' message classes (these are
 * control requests: allocation is fine, and only while a topic's request rate is limited).
 *
 * <p>A request that asks for every topic (a Metadata or OffsetFetch with no list) names none; a
 * version the pinned kafka-clients cannot read names none, as does an API not listed. Names come
 * out as the client wrote them, repeated if it repeated them and of any length: the caller bounds
 * them. An unreadable request raises a {@code MalformedFrameException}. Stateless.
 */
public final class RequestTopics {

    private static final String UNREADABLE = "bad_topic_request";
    private static final byte TOPIC_RESOURCE = ConfigResource.Type.TOPIC.id();
    /** The APIs whose requests name topics. */
    static final Set<ApiKeys> NAMING = EnumSet.of(
            ApiKeys.METADATA,
            ApiKeys.LIST_OFFSETS,
            ApiKeys.OFFSET_COMMIT,
            ApiKeys.OFFSET_FETCH,
            ApiKeys.OFFSET_FOR_LEADER_EPOCH,
            ApiKeys.OFFSET_DELETE,
            ApiKeys.TXN_OFFSET_COMMIT,
            ApiKeys.DELETE_RECORDS,
            ApiKeys.CREATE_TOPICS,
            ApiKeys.CREATE_PARTITIONS,
            ApiKeys.DELETE_TOPICS,
            ApiKeys.DESCRIBE_CONFIGS,
            ApiKeys.ALTER_CONFIGS,
            ApiKeys.INCREMENTAL_ALTER_CONFIGS,
            ApiKeys.DESCRIBE_PRODUCERS,
            ApiKeys.ELECT_LEADERS,
            ApiKeys.DESCRIBE_TOPIC_PARTITIONS);

    private RequestTopics() {}

    /** Whether requests of API {@code apiKey} may name topics. */
    public static boolean namesTopics(short apiKey) {
        return ApiKeys.hasId(apiKey) && NAMING.contains(ApiKeys.forId(apiKey));
    }

    /**
     * Hands {@code each} every topic the lent request {@code frame} names, whose header
     * {@code header} just read; a topic named by id only goes by the name {@code namesById} gives
     * it, or not at all when that is null. The frame is left as it was.
     */
    public static void forEach(
            FrameView frame, RequestHeader header, Function<Uuid, String> namesById, Consumer<String> each) {
        if (!namesTopics(header.apiKey())) {
            return;
        }
        ApiKeys api = ApiKeys.forId(header.apiKey());
        short version = header.apiVersion();
        if (version < api.oldestVersion() || version > api.latestVersion(true)) {
            return;
        }
        Names names = new Names(frame, header, namesById, each);
        switch (api) {
            case METADATA -> {
                MetadataRequestData metadata = names.read(new MetadataRequestData());
                if (metadata.topics() != null) {
                    metadata.topics().forEach(topic -> names.named(topic.name(), topic.topicId()));
                }
            }
            case LIST_OFFSETS ->
                names.read(new ListOffsetsRequestData()).topics().forEach(t -> each.accept(t.name()));
            case OFFSET_COMMIT ->
                names.read(new OffsetCommitRequestData())
                        .topics()
                        .forEach(topic -> names.named(topic.name(), topic.topicId()));
            case OFFSET_FETCH -> {
                OffsetFetchRequestData fetch = names.read(new OffsetFetchRequestData());
                if (fetch.topics() != null) {
                    fetch.topics().forEach(topic -> each.accept(topic.name()));
                }
                for (OffsetFetchRequestData.OffsetFetchRequestGroup group : fetch.groups()) {
                    if (group.topics() != null) {
                        group.topics().forEach(topic -> names.named(topic.name(), topic.topicId()));
                    }
                }
            }
            case OFFSET_FOR_LEADER_EPOCH ->
                names.read(new OffsetForLeaderEpochRequestData()).topics().forEach(topic -> each.accept(topic.topic()));
            case OFFSET_DELETE ->
                names.read(new OffsetDeleteRequestData()).topics().forEach(t -> each.accept(t.name()));
            case TXN_OFFSET_COMMIT ->
                names.read(new TxnOffsetCommitRequestData()).topics().forEach(topic -> each.accept(topic.name()));
            case DELETE_RECORDS ->
                names.read(new DeleteRecordsRequestData()).topics().forEach(t -> each.accept(t.name()));
            case CREATE_TOPICS ->
                names.read(new CreateTopicsRequestData()).topics().forEach(t -> each.accept(t.name()));
            case CREATE_PARTITIONS ->
                names.read(new CreatePartitionsRequestData()).topics().forEach(topic -> each.accept(topic.name()));
            case DELETE_TOPICS -> {
                DeleteTopicsRequestData delete = names.read(new DeleteTopicsRequestData());
                delete.topicNames().forEach(each);
                delete.topics().forEach(topic -> names.named(topic.name(), topic.topicId()));
            }
            case DESCRIBE_CONFIGS ->
                names.read(new DescribeConfigsRequestData())
                        .resources()
                        .forEach(resource -> names.resource(resource.resourceType(), resource.resourceName()));
            case ALTER_CONFIGS ->
                names.read(new AlterConfigsRequestData())
                        .resources()
                        .forEach(resource -> names.resource(resource.resourceType(), resource.resourceName()));
            case INCREMENTAL_ALTER_CONFIGS ->
                names.read(new IncrementalAlterConfigsRequestData())
                        .resources()
                        .forEach(resource -> names.resource(resource.resourceType(), resource.resourceName()));
            case DESCRIBE_PRODUCERS ->
                names.read(new DescribeProducersRequestData()).topics().forEach(topic -> each.accept(topic.name()));
            case ELECT_LEADERS -> {
                ElectLeadersRequestData elect = names.read(new ElectLeadersRequestData());
                if (elect.topicPartitions() != null) {
                    elect.topicPartitions().forEach(topic -> each.accept(topic.topic()));
                }
            }
            case DESCRIBE_TOPIC_PARTITIONS ->
                names.read(new DescribeTopicPartitionsRequestData())
                        .topics()
                        .forEach(topic -> each.accept(topic.name()));
            default -> throw new IllegalStateException("no topics read for " + api);
        }
    }

    /** Where a topic named by name, by id or as a config resource goes. */
    private record Names(
            FrameView frame, RequestHeader header, Function<Uuid, String> namesById, Consumer<String> each) {

        <M extends ApiMessage> M read(M empty) {
            return MessageFrames.read(empty, frame, header.bodyIndex(), header.apiVersion(), UNREADABLE);
        }

        void named(String name, Uuid id) {
            String known = name != null && !name.isEmpty() || id == null || Uuid.ZERO_UUID.equals(id)
                    ? name
                    : namesById.apply(id);
            if (known != null) {
                each.accept(known);
            }
        }

        void resource(byte type, String name) {
            if (type == TOPIC_RESOURCE) {
                each.accept(name);
            }
        }
    }
}
