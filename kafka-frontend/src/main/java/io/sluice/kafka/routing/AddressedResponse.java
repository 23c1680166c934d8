package io.sluice.kafka.routing;

import io.sluice.kafka.codec.HandledApi;
import org.apache.kafka.common.message.CreateTopicsResponseData;
import org.apache.kafka.common.message.CreateTopicsResponseData.CreatableTopicResult;
import org.apache.kafka.common.message.DescribeClusterResponseData;
import org.apache.kafka.common.message.DescribeClusterResponseData.DescribeClusterBroker;
import org.apache.kafka.common.message.DescribeTopicPartitionsResponseData;
import org.apache.kafka.common.message.DescribeTopicPartitionsResponseData.DescribeTopicPartitionsResponseTopic;
import org.apache.kafka.common.message.FetchResponseData;
import org.apache.kafka.common.message.FindCoordinatorResponseData;
import org.apache.kafka.common.message.FindCoordinatorResponseData.Coordinator;
import org.apache.kafka.common.message.MetadataResponseData;
import org.apache.kafka.common.message.MetadataResponseData.MetadataResponseBroker;
import org.apache.kafka.common.message.MetadataResponseData.MetadataResponseTopic;
import org.apache.kafka.common.message.ProduceResponseData;
import org.apache.kafka.common.message.ShareAcknowledgeResponseData;
import org.apache.kafka.common.message.ShareFetchResponseData;
import org.apache.kafka.common.protocol.ApiMessage;

import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiConsumer;
import java.util.function.Supplier;

/**
 * Where the responses of one API name brokers, and which carry topic ids, as data for {@link ResponseRewriter}: the message
 * class to read them into, whether only a response that carries node endpoints needs reading (brokers
 * fill them only when a leader moved, so most Produce and Fetch responses go as they came), how
 * Sluice's address goes in place of each broker named, and what else Sluice learns from them.
 *
 * @param message               a new, empty message to read a response into
 * @param onlyWithNodeEndpoints read only responses that {@link io.sluice.kafka.codec.NodeEndpointsProbe} finds endpoints in
 * @param addresses             puts Sluice's address in place of every broker of a response read
 * @param learn                 what Sluice learns from every response read, in either routing mode;
 *                              null when nothing (the response is then read in rewrite mode alone)
 */
record AddressedResponse<M extends ApiMessage>(
        Supplier<M> message, boolean onlyWithNodeEndpoints, Addresses<M> addresses, BiConsumer<M, TopicIds> learn) {

    /** Puts Sluice's address in place of each broker a response names. */
    @FunctionalInterface
    interface Addresses<M> {

        /** Rewrites the brokers of {@code response} (version {@code version}); whether any changed. */
        boolean rewrite(M response, short version, AdvertisedNodes nodes);
    }

    /** The first FindCoordinator version to answer for a batch of keys, in {@code coordinators[]}. */
    private static final short COORDINATOR_BATCHES = 4;

    private static final Map<HandledApi, AddressedResponse<?>> BY_API = new EnumMap<>(HandledApi.class);

    static {
        // Brokers listed, and topic ids learnt in either mode: Produce v13 and Fetch v13+ name topics by id.
        BY_API.put(
                HandledApi.METADATA,
                new AddressedResponse<MetadataResponseData>(
                        MetadataResponseData::new,
                        false,
                        (response, version, nodes) -> nodes.rewrite(
                                response.brokers(),
                                MetadataResponseBroker::nodeId,
                                MetadataResponseBroker::host,
                                MetadataResponseBroker::port,
                                (broker, host, port) -> broker.setHost(host).setPort(port)),
                        (response, topicIds) -> {
                            for (MetadataResponseTopic topic : response.topics()) {
                                topicIds.learn(topic.topicId(), topic.name());
                            }
                        }));
        // The coordinator (v0-v3) or each coordinator (v4+).
        BY_API.put(
                HandledApi.FIND_COORDINATOR,
                new AddressedResponse<FindCoordinatorResponseData>(
                        FindCoordinatorResponseData::new,
                        false,
                        (response, version, nodes) -> version < COORDINATOR_BATCHES
                                ? nodes.rewrite(
                                        List.of(response),
                                        FindCoordinatorResponseData::nodeId,
                                        FindCoordinatorResponseData::host,
                                        FindCoordinatorResponseData::port,
                                        (single, host, port) ->
                                                single.setHost(host).setPort(port))
                                : nodes.rewrite(
                                        response.coordinators(),
                                        Coordinator::nodeId,
                                        Coordinator::host,
                                        Coordinator::port,
                                        (coordinator, host, port) ->
                                                coordinator.setHost(host).setPort(port)),
                        null));
        BY_API.put(
                HandledApi.DESCRIBE_CLUSTER,
                new AddressedResponse<DescribeClusterResponseData>(
                        DescribeClusterResponseData::new,
                        false,
                        (response, version, nodes) -> nodes.rewrite(
                                response.brokers(),
                                DescribeClusterBroker::brokerId,
                                DescribeClusterBroker::host,
                                DescribeClusterBroker::port,
                                (broker, host, port) -> broker.setHost(host).setPort(port)),
                        null));
        // The new leaders a broker names after a leader moved (KIP-951): Produce v10+, Fetch v16+.
        // Each message has its own NodeEndpoint class, with the same accessors.
        BY_API.put(
                HandledApi.PRODUCE,
                new AddressedResponse<ProduceResponseData>(
                        ProduceResponseData::new,
                        true,
                        (response, version, nodes) -> nodes.rewrite(
                                response.nodeEndpoints(),
                                ProduceResponseData.NodeEndpoint::nodeId,
                                ProduceResponseData.NodeEndpoint::host,
                                ProduceResponseData.NodeEndpoint::port,
                                (endpoint, host, port) -> endpoint.setHost(host).setPort(port)),
                        null));
        BY_API.put(
                HandledApi.FETCH,
                new AddressedResponse<FetchResponseData>(
                        FetchResponseData::new,
                        true,
                        (response, version, nodes) -> nodes.rewrite(
                                response.nodeEndpoints(),
                                FetchResponseData.NodeEndpoint::nodeId,
                                FetchResponseData.NodeEndpoint::host,
                                FetchResponseData.NodeEndpoint::port,
                                (endpoint, host, port) -> endpoint.setHost(host).setPort(port)),
                        null));
        BY_API.put(
                HandledApi.SHARE_FETCH,
                new AddressedResponse<ShareFetchResponseData>(
                        ShareFetchResponseData::new,
                        true,
                        (response, version, nodes) -> nodes.rewrite(
                                response.nodeEndpoints(),
                                ShareFetchResponseData.NodeEndpoint::nodeId,
                                ShareFetchResponseData.NodeEndpoint::host,
                                ShareFetchResponseData.NodeEndpoint::port,
                                (endpoint, host, port) -> endpoint.setHost(host).setPort(port)),
                        null));
        BY_API.put(
                HandledApi.SHARE_ACKNOWLEDGE,
                new AddressedResponse<ShareAcknowledgeResponseData>(
                        ShareAcknowledgeResponseData::new,
                        true,
                        (response, version, nodes) -> nodes.rewrite(
                                response.nodeEndpoints(),
                                ShareAcknowledgeResponseData.NodeEndpoint::nodeId,
                                ShareAcknowledgeResponseData.NodeEndpoint::host,
                                ShareAcknowledgeResponseData.NodeEndpoint::port,
                                (endpoint, host, port) -> endpoint.setHost(host).setPort(port)),
                        null));
    }

    static {
        // No brokers, but topic ids: learnt wherever a response names a topic by both.
        BY_API.put(
                HandledApi.CREATE_TOPICS,
                new AddressedResponse<CreateTopicsResponseData>(
                        CreateTopicsResponseData::new,
                        false,
                        (response, version, nodes) -> false,
                        (response, topicIds) -> {
                            for (CreatableTopicResult topic : response.topics()) {
                                topicIds.learn(topic.topicId(), topic.name());
                            }
                        }));
        BY_API.put(
                HandledApi.DESCRIBE_TOPIC_PARTITIONS,
                new AddressedResponse<DescribeTopicPartitionsResponseData>(
                        DescribeTopicPartitionsResponseData::new,
                        false,
                        (response, version, nodes) -> false,
                        (response, topicIds) -> {
                            for (DescribeTopicPartitionsResponseTopic topic : response.topics()) {
                                topicIds.learn(topic.topicId(), topic.name());
                            }
                        }));
    }

    /** Where responses to {@code api} name brokers; null for an API whose responses name none. */
    static AddressedResponse<?> of(HandledApi api) {
        return BY_API.get(api);
    }
}
