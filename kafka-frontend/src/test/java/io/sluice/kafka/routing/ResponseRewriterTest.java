package io.sluice.kafka.routing;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.UnpooledByteBufAllocator;
import io.sluice.kafka.codec.HandledApi;
import io.sluice.kafka.testing.BrokerResponses;
import io.sluice.kafka.testing.KafkaFrames;
import io.sluice.relay.MalformedFrameException;
import io.sluice.testing.LeakCheck;
import org.apache.kafka.common.message.DescribeClusterResponseData;
import org.apache.kafka.common.message.FetchResponseData;
import org.apache.kafka.common.message.FindCoordinatorResponseData;
import org.apache.kafka.common.message.JoinGroupResponseData;
import org.apache.kafka.common.message.MetadataResponseData;
import org.apache.kafka.common.message.ProduceResponseData;
import org.apache.kafka.common.message.ShareAcknowledgeResponseData;
import org.apache.kafka.common.message.ShareFetchResponseData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.ApiMessage;
import org.apache.kafka.common.protocol.types.RawTaggedField;
import org.apache.kafka.common.requests.AbstractResponse;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

@ExtendWith(LeakCheck.class)
class ResponseRewriterTest {

    private static final String SLUICE = "sluice.example";
    private static final int NODE_PORT_BASE = 19000;

    private final UnpooledByteBufAllocator alloc = new UnpooledByteBufAllocator(false);
    private final Set<String> seen = new TreeSet<>();
    private final TopicIds topicIds = new TopicIds(100);
    private final ResponseRewriter rewriter = ResponseRewriter.rewriting(
            new AdvertisedNodes(SLUICE, NODE_PORT_BASE, (id, host, port) -> seen.add(id + "@" + host + ":" + port)),
            topicIds);

    @AfterEach
    void nothingLeftAllocated() {
        assertEquals(0, alloc.metric().usedHeapMemory(), "buffers left unreleased");
    }

    @Test
    void putsSluiceInPlaceOfEveryBrokerInMetadataOfEveryVersion() {
        for (short version = 0; version <= 13; version++) {
            seen.clear();
            MetadataResponseData expected = BrokerResponses.metadata(version);
            expected.brokers().forEach(b -> b.setHost(SLUICE).setPort(NODE_PORT_BASE + b.nodeId()));
            assertRewritten(ApiKeys.METADATA, version, BrokerResponses.metadata(version), expected);
            assertEquals(
                    Set.of(
                            "0@broker-0.kafka.internal:9092",
                            "1@broker-1.kafka.internal:9093",
                            "2@broker-2.kafka.internal:9094"),
                    seen,
                    "v" + version);
        }
        assertEquals("orders", topicIds.name(BrokerResponses.ORDERS_ID));
        assertEquals(1, topicIds.size(), "the topic in error has no id to learn");
    }

    @Test
    void rewritesTheCoordinatorOfEveryFindCoordinatorVersion() {
        for (short version = 0; version <= 6; version++) {
            seen.clear();
            FindCoordinatorResponseData expected = BrokerResponses.findCoordinator(version);
            if (version < 4) {
                expected.setHost(SLUICE).setPort(NODE_PORT_BASE + 1);
            } else {
                // The batch's failed lookup names no node and stays as the broker wrote it.
                expected.coordinators().get(0).setHost(SLUICE).setPort(NODE_PORT_BASE + 1);
            }
            assertRewritten(ApiKeys.FIND_COORDINATOR, version, BrokerResponses.findCoordinator(version), expected);
            assertEquals(Set.of("1@broker-1.kafka.internal:9093"), seen);
        }
    }

    @Test
    void forwardsAFailedCoordinatorLookupAsItCame() {
        for (short version = 0; version <= 3; version++) {
            assertForwardedAsIs(ApiKeys.FIND_COORDINATOR, version, BrokerResponses.noCoordinator());
        }
        assertTrue(seen.isEmpty());
    }

    @Test
    void rewritesEveryBrokerOfDescribeCluster() {
        for (short version = 0; version <= 2; version++) {
            DescribeClusterResponseData expected = BrokerResponses.describeCluster();
            expected.brokers().forEach(b -> b.setHost(SLUICE).setPort(NODE_PORT_BASE + b.brokerId()));
            assertRewritten(ApiKeys.DESCRIBE_CLUSTER, version, BrokerResponses.describeCluster(), expected);
        }
    }

    @Test
    void rewritesTheNodeEndpointsOfProduceAndFetchAndLeavesTheRestByteForByte() {
        for (short version = 3; version <= 13; version++) {
            assertForwardedAsIs(ApiKeys.PRODUCE, version, BrokerResponses.produce(version, false));
            if (version >= 10) {
                ProduceResponseData expected = BrokerResponses.produce(version, true);
                expected.nodeEndpoints().forEach(e -> e.setHost(SLUICE).setPort(NODE_PORT_BASE + e.nodeId()));
                assertRewritten(ApiKeys.PRODUCE, version, BrokerResponses.produce(version, true), expected);
            }
        }
        for (short version = 4; version <= 18; version++) {
            assertForwardedAsIs(ApiKeys.FETCH, version, BrokerResponses.fetch(version, false));
            if (version >= 16) {
                FetchResponseData expected = BrokerResponses.fetch(version, true);
                expected.nodeEndpoints().forEach(e -> e.setHost(SLUICE).setPort(NODE_PORT_BASE + e.nodeId()));
                assertRewritten(ApiKeys.FETCH, version, BrokerResponses.fetch(version, true), expected);
            }
        }
        assertEquals(Set.of("2@broker-2.kafka.internal:9094"), seen);
    }

    @Test
    void rewritesTheNodeEndpointsOfShareFetchAndShareAcknowledge() {
        for (short version = 1; version <= 2; version++) {
            assertForwardedAsIs(ApiKeys.SHARE_FETCH, version, BrokerResponses.shareFetch(false));
            assertForwardedAsIs(ApiKeys.SHARE_ACKNOWLEDGE, version, BrokerResponses.shareAcknowledge(false));
            ShareFetchResponseData fetch = BrokerResponses.shareFetch(true);
            fetch.nodeEndpoints().forEach(e -> e.setHost(SLUICE).setPort(NODE_PORT_BASE + e.nodeId()));
            assertRewritten(ApiKeys.SHARE_FETCH, version, BrokerResponses.shareFetch(true), fetch);
            ShareAcknowledgeResponseData acknowledge = BrokerResponses.shareAcknowledge(true);
            acknowledge.nodeEndpoints().forEach(e -> e.setHost(SLUICE).setPort(NODE_PORT_BASE + e.nodeId()));
            assertRewritten(ApiKeys.SHARE_ACKNOWLEDGE, version, BrokerResponses.shareAcknowledge(true), acknowledge);
        }
    }

    @Test
    void keepsTheResponseHeadersTaggedFields() {
        List<RawTaggedField> tags = List.of(new RawTaggedField(3, new byte[] {9, 8, 7}));
        ByteBuf frame = KafkaFrames.response(BrokerResponses.metadata((short) 12), (short) 12, 5, tags);
        ByteBuf out = rewritten(rewriter, alloc, frame, ApiKeys.METADATA.id, (short) 12);
        try {
            byte[] bytes = KafkaFrames.frameBytes(out);
            assertArrayEquals(new byte[] {0, 0, 0, 5, 1, 3, 3, 9, 8, 7}, java.util.Arrays.copyOfRange(bytes, 4, 14));
            KafkaFrames.asClientReads(out, ApiKeys.METADATA, (short) 12, 5);
        } finally {
            out.release();
        }
    }

    @Test
    void forwardsApisItDoesNotHandleUntouched() {
        ByteBuf frame = alloc.buffer();
        frame.writeBytes(KafkaFrames.frameBytes(
                KafkaFrames.response(new JoinGroupResponseData().setMemberId("m"), (short) 9, 1)));
        assertSame(frame, rewritten(rewriter, alloc, frame, ApiKeys.JOIN_GROUP.id, (short) 9));
        frame.release();
    }

    @Test
    void passthroughLearnsTopicIdsButChangesNoAddress() {
        ResponseRewriter passthrough = ResponseRewriter.passingThrough(topicIds);
        assertEquals(RoutingMode.PASSTHROUGH, passthrough.mode());
        List<ApiMessage> responses = List.of(
                BrokerResponses.metadata((short) 12),
                BrokerResponses.findCoordinator((short) 6),
                BrokerResponses.describeCluster(),
                BrokerResponses.produce((short) 11, true),
                BrokerResponses.fetch((short) 17, true));
        short[] versions = {12, 6, 1, 11, 17};
        for (int i = 0; i < responses.size(); i++) {
            ByteBuf frame = pooledCopy(KafkaFrames.response(responses.get(i), versions[i], i));
            assertSame(
                    frame, rewritten(passthrough, alloc, frame, responses.get(i).apiKey(), versions[i]));
            frame.release();
        }
        assertEquals("orders", topicIds.name(BrokerResponses.ORDERS_ID));
    }

    @Test
    void learnsTopicIdsFromCreateTopicsAndDescribeTopicPartitionsAndPassesThemOnAsTheyCame() {
        ApiMessage[] responses = {BrokerResponses.createTopics(), BrokerResponses.describeTopicPartitions()};
        short[] versions = {7, 0};
        for (int i = 0; i < responses.length; i++) {
            TopicIds learnt = new TopicIds(8);
            ResponseRewriter own = ResponseRewriter.rewriting(
                    new AdvertisedNodes(SLUICE, NODE_PORT_BASE, (id, host, port) -> {}), learnt);
            ByteBuf frame = pooledCopy(KafkaFrames.response(responses[i], versions[i], i));
            assertSame(frame, rewritten(own, alloc, frame, responses[i].apiKey(), versions[i]), "no broker named");
            frame.release();
            assertEquals(
                    "orders",
                    learnt.name(BrokerResponses.ORDERS_ID),
                    responses[i].getClass().getSimpleName());
        }
    }

    @Test
    void closesRatherThanLeakABrokerAddressItCannotRoute() {
        ResponseRewriter highBase =
                ResponseRewriter.rewriting(new AdvertisedNodes(SLUICE, 65534, (id, host, port) -> {}), topicIds);
        ByteBuf frame = pooledCopy(KafkaFrames.response(BrokerResponses.metadata((short) 12), (short) 12, 1));
        MalformedFrameException e = assertThrows(
                MalformedFrameException.class,
                () -> rewritten(highBase, alloc, frame, ApiKeys.METADATA.id, (short) 12));
        assertEquals("node_port_out_of_range", e.reason());
        assertEquals(0, frame.refCnt(), "the frame is released");
    }

    @Test
    void rejectsAnUnreadableResponseAndReleasesIt() {
        // Every API whose responses name brokers or topic ids (AddressedResponseTest holds the table to the schemas).
        for (HandledApi api : HandledApi.values()) {
            if (AddressedResponse.of(api) == null) {
                continue;
            }
            short version = api.maxVersion();
            ByteBuf whole = KafkaFrames.response(BrokerResponses.of(api.key(), version, true), version, 1);
            for (int end = 8; end < whole.readableBytes() - 1; end += 5) {
                ByteBuf cut = pooledCopy(whole.retainedSlice(0, end));
                int cutAt = end;
                MalformedFrameException e = assertThrows(
                        MalformedFrameException.class,
                        () -> rewritten(rewriter, alloc, cut, api.key().id, version),
                        api + " cut at " + cutAt);
                assertTrue(Set.of("bad_response_body", "bad_response_header").contains(e.reason()), e.reason());
                assertEquals(0, cut.refCnt(), "the frame is released");
            }
            whole.release();
        }
    }

    /**
     * What the client gets for the broker's response {@code frame} to {@code apiKey} v{@code version}
     * after {@code rewriter}: {@code frame} itself, or the frame that took its place with
     * {@code frame} released, as the connection hands it on. Takes ownership of {@code frame}.
     */
    static ByteBuf rewritten(
            ResponseRewriter rewriter, ByteBufAllocator alloc, ByteBuf frame, short apiKey, short version) {
        return KafkaFrames.treated(frame, apiKey, version, response -> rewriter.rewrite(alloc, response));
    }

    /** The rewritten frame reads, as a client reads it, as {@code expected}, and names no broker. */
    private void assertRewritten(ApiKeys api, short version, ApiMessage broker, ApiMessage expected) {
        ByteBuf frame = pooledCopy(KafkaFrames.response(broker, version, 100 + version));
        ByteBuf out = rewritten(rewriter, alloc, frame, api.id, version);
        try {
            assertFalse(out == frame, api + " v" + version + " not rewritten");
            assertEquals(0, frame.refCnt(), "the original is released");
            String what = api + " v" + version;
            AbstractResponse read = KafkaFrames.asClientReads(out, api, version, 100 + version);
            assertEquals(expected, read.data(), what);
            assertFalse(
                    new String(KafkaFrames.frameBytes(out), StandardCharsets.ISO_8859_1)
                            .contains(BrokerResponses.UPSTREAM_DOMAIN),
                    what + " still names a broker");
        } finally {
            out.release();
        }
    }

    private void assertForwardedAsIs(ApiKeys api, short version, ApiMessage broker) {
        ByteBuf frame = pooledCopy(KafkaFrames.response(broker, version, 7));
        byte[] before = ByteBufUtil.getBytes(frame);
        ByteBuf out = rewritten(rewriter, alloc, frame, api.id, version);
        try {
            assertSame(frame, out, api + " v" + version);
            assertArrayEquals(before, ByteBufUtil.getBytes(out));
        } finally {
            out.release();
        }
    }

    /** A copy in this test's allocator (whose usage is checked), releasing {@code source}. */
    private ByteBuf pooledCopy(ByteBuf source) {
        ByteBuf copy = alloc.heapBuffer(source.readableBytes()).writeBytes(source);
        source.release();
        return copy;
    }
}
