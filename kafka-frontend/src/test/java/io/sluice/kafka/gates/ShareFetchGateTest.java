package io.sluice.kafka.gates;

import io.netty.buffer.ByteBuf;
import io.sluice.kafka.codec.MessageFrames;
import io.sluice.kafka.codec.RequestHeader;
import io.sluice.kafka.gates.GateHarness.Forwarded;
import io.sluice.kafka.scopes.KafkaScopes;
import io.sluice.kafka.testing.KafkaFrames;
import io.sluice.kafka.testing.RecordFrames;
import io.sluice.limits.ScopeRef;
import io.sluice.relay.FrameView;
import io.sluice.testing.LeakCheck;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.message.ShareFetchRequestData;
import org.apache.kafka.common.message.ShareFetchResponseData;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The share fetch gate against a fake clock: the request's max_records lowered to what the session's
 * topics have left, a request held while they have nothing (never longer than its max_wait_ms), and
 * the records acquired charged to their topic.
 */
@ExtendWith(LeakCheck.class)
class ShareFetchGateTest {

    private static final short V = 1;
    private static final String SLOW = "slow";
    private static final Uuid SLOW_ID = Uuid.fromString("Qk5w9dBnSeyqTO2Dg0Yj2A");
    private static final int MAX_WAIT = 500;

    private final GateHarness harness = new GateHarness();
    private int correlationId;

    @AfterEach
    void closeAll() {
        harness.close();
    }

    private void limitSlow(double perSecond) {
        harness.topicIds.learn(SLOW_ID, SLOW);
        harness.limit(new ScopeRef(KafkaScopes.TOPIC, SLOW), GateHarness.records(false, perSecond, null));
    }

    private void shareFetch(int epoch, int maxRecords) {
        ShareFetchRequestData request = new ShareFetchRequestData()
                .setGroupId("g")
                .setMemberId("m")
                .setShareSessionEpoch(epoch)
                .setMaxWaitMs(MAX_WAIT)
                .setMinBytes(1)
                .setMaxBytes(1 << 20)
                .setMaxRecords(maxRecords)
                .setBatchSize(maxRecords);
        if (epoch == 0) {
            ShareFetchRequestData.FetchTopic topic = new ShareFetchRequestData.FetchTopic().setTopicId(SLOW_ID);
            topic.partitions().add(new ShareFetchRequestData.FetchPartition().setPartitionIndex(0));
            request.topics().add(topic);
        }
        harness.request(KafkaFrames.request(request, V, ++correlationId, GateHarness.CLIENT_ID));
    }

    private static int maxRecords(Forwarded request) {
        FrameView view = KafkaFrames.view(request.frame());
        RequestHeader header = new RequestHeader().read(view);
        return MessageFrames.read(new ShareFetchRequestData(), view, header.bodyIndex(), V, "test")
                .maxRecords();
    }

    /** The broker acquires {@code records} records of SLOW for {@code request}. */
    private void acquire(Forwarded request, int records) {
        ShareFetchResponseData response = new ShareFetchResponseData();
        ShareFetchResponseData.ShareFetchableTopicResponse topic =
                new ShareFetchResponseData.ShareFetchableTopicResponse().setTopicId(SLOW_ID);
        topic.partitions()
                .add(new ShareFetchResponseData.PartitionData()
                        .setPartitionIndex(0)
                        .setRecords(RecordFrames.batch(records, 10))
                        .setAcquiredRecords(List.of(new ShareFetchResponseData.AcquiredRecords()
                                .setFirstOffset(0)
                                .setLastOffset(records - 1)
                                .setDeliveryCount((short) 1))));
        response.responses().add(topic);
        ByteBuf out = harness.respond(request, response);
        assertTrue(out.readableBytes() > 0);
    }

    @Test
    void aShareFetchAsksForNoMoreRecordsThanTheTopicHasLeft() {
        limitSlow(100);
        shareFetch(0, 500);
        Forwarded first = harness.takeForwarded();
        assertEquals(100, maxRecords(first), "the burst of 100");
        acquire(first, 60);
        shareFetch(1, 500);
        assertEquals(40, maxRecords(harness.takeForwarded()), "what is left after 60");
        assertEquals(60, harness.activity.meter("kafka", SLOW).dispatchMessages());
    }

    @Test
    void aShareFetchTheTopicHasNothingForWaitsUntilItHas() {
        limitSlow(100);
        shareFetch(0, 500);
        acquire(harness.takeForwarded(), 150);
        shareFetch(1, 500);
        assertTrue(harness.forwarded.isEmpty(), "held: the topic owes 50");
        assertTrue(harness.paused, "nothing behind it is read");
        assertEquals("delay", harness.throttled().get(0).action());
        harness.advance(400);
        assertTrue(harness.forwarded.isEmpty(), "still owes 10 after 400 ms");
        harness.advance(110);
        Forwarded released = harness.takeForwarded();
        assertNull(released.lentFrom(), "the held slice itself goes, owned by the connection from then on");
        assertTrue(
                maxRecords(released) >= 1 && maxRecords(released) <= 2, "what 10 ms earned: " + maxRecords(released));
    }

    @Test
    void anUnlimitedTopicsShareFetchGoesAsItCame() {
        harness.topicIds.learn(SLOW_ID, SLOW);
        shareFetch(0, 500);
        Forwarded request = harness.takeForwarded();
        assertEquals(500, maxRecords(request));
        acquire(request, 300);
        assertEquals(300, harness.activity.meter("kafka", SLOW).dispatchMessages());
    }
}
