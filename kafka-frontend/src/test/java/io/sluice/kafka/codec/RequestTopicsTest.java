package io.sluice.kafka.codec;

import io.netty.buffer.ByteBuf;
import io.sluice.kafka.testing.KafkaFrames;
import io.sluice.relay.FrameView;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.message.DeleteTopicsRequestData;
import org.apache.kafka.common.message.DescribeConfigsRequestData;
import org.apache.kafka.common.message.MetadataRequestData;
import org.apache.kafka.common.message.OffsetFetchRequestData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.ApiMessage;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class RequestTopicsTest {

    private static final Uuid ORDERS_ID = Uuid.fromString("Qk5w9dBnSeyqTO2Dg0Yj2A");

    @Test
    void everyApiThatNamesTopicsGivesTheTopicItNames() {
        for (ApiKeys api : TopicNamingRequests.APIS) {
            assertTrue(RequestTopics.namesTopics(api.id), api.name());
            assertEquals(
                    List.of("orders"),
                    topics(TopicNamingRequests.naming(api, "orders"), TopicNamingRequests.version(api)),
                    api.name());
        }
    }

    @Test
    void requestsOfOtherApisNameNone() {
        assertFalse(RequestTopics.namesTopics(ApiKeys.PRODUCE.id), "Produce has limits of its own");
        assertFalse(RequestTopics.namesTopics(ApiKeys.FIND_COORDINATOR.id));
        assertFalse(RequestTopics.namesTopics((short) 999));
    }

    @Test
    void aRequestForEveryTopicNamesNone() {
        assertEquals(List.of(), topics(new MetadataRequestData().setTopics(null), (short) 12));
    }

    @Test
    void aTopicNamedByIdGoesByTheNameSluiceLearntOrNotAtAll() {
        MetadataRequestData byId = new MetadataRequestData()
                .setTopics(List.of(
                        new MetadataRequestData.MetadataRequestTopic()
                                .setName(null)
                                .setTopicId(ORDERS_ID),
                        new MetadataRequestData.MetadataRequestTopic()
                                .setName(null)
                                .setTopicId(Uuid.fromString("AAAAAAAAAAAAAAAAAAAAAQ"))));
        assertEquals(List.of("orders"), topics(byId, (short) 12));
    }

    @Test
    void olderLayoutsAreReadToo() {
        assertEquals(
                List.of("a", "b"),
                topics(new DeleteTopicsRequestData().setTopicNames(List.of("a", "b")), (short) 5),
                "DeleteTopics up to v5 lists names");
        assertEquals(
                List.of("a"),
                topics(
                        new OffsetFetchRequestData()
                                .setGroupId("g")
                                .setTopics(List.of(new OffsetFetchRequestData.OffsetFetchRequestTopic().setName("a"))),
                        (short) 7),
                "OffsetFetch up to v7 has one group");
    }

    @Test
    void onlyTopicResourcesOfConfigRequestsAreTopics() {
        DescribeConfigsRequestData describe = new DescribeConfigsRequestData()
                .setResources(List.of(
                        new DescribeConfigsRequestData.DescribeConfigsResource()
                                .setResourceType(ConfigResource.Type.BROKER.id())
                                .setResourceName("1"),
                        new DescribeConfigsRequestData.DescribeConfigsResource()
                                .setResourceType(ConfigResource.Type.TOPIC.id())
                                .setResourceName("orders")));
        assertEquals(List.of("orders"), topics(describe, (short) 4));
    }

    private static List<String> topics(ApiMessage request, short version) {
        ByteBuf frame = KafkaFrames.request(request, version, 7, "client");
        try {
            FrameView view = KafkaFrames.view(frame);
            RequestHeader header = new RequestHeader().read(view);
            List<String> named = new ArrayList<>();
            RequestTopics.forEach(view, header, Map.of(ORDERS_ID, "orders")::get, named::add);
            return named;
        } finally {
            frame.release();
        }
    }
}
