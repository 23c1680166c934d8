package io.sluice.kafka.gates;

import io.netty.buffer.ByteBuf;
import io.sluice.kafka.codec.GroupRequests;
import io.sluice.kafka.scopes.KafkaNames;
import io.sluice.kafka.scopes.KafkaScopes;
import io.sluice.kafka.testing.KafkaFrames;
import io.sluice.limits.Limit;
import io.sluice.limits.OnExceed;
import io.sluice.limits.ScopeKind;
import io.sluice.limits.ScopeRef;
import io.sluice.relay.MalformedFrameException;
import io.sluice.status.ThrottledClient;
import io.sluice.testing.LeakCheck;
import org.apache.kafka.common.message.JoinGroupRequestData;
import org.apache.kafka.common.message.JoinGroupResponseData;
import org.apache.kafka.common.message.OffsetCommitRequestData;
import org.apache.kafka.common.message.OffsetCommitResponseData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The group gate against a fake clock: a group's JoinGroups past its rate held in Sluice until the
 * rate admits them, the connection taking nothing behind one meanwhile; {@code reject}, or a wait
 * too long to hold, answered with the retriable refusal; a glob's groups sharing its bucket, an
 * untrusted group id bounded, and nothing charged for a request that does not parse.
 */
@ExtendWith(LeakCheck.class)
class GroupGateTest {

    private static final short JOIN_V = 9;
    private static final short COMMIT_V = 9;

    private final GateHarness harness = new GateHarness();
    private int correlationId;

    @AfterEach
    void closeAll() {
        harness.close();
    }

    private void limit(String name, Double joinsPerMinute, Double commitsPerMinute, OnExceed onExceed) {
        harness.limit(
                new ScopeRef(KafkaScopes.GROUP, name),
                Limit.joinsPerMinute(joinsPerMinute)
                        .withCommitsPerMinute(commitsPerMinute)
                        .withOnExceed(onExceed));
    }

    private void join(String group) {
        JoinGroupRequestData request = new JoinGroupRequestData()
                .setGroupId(group)
                .setSessionTimeoutMs(45_000)
                .setRebalanceTimeoutMs(300_000)
                .setMemberId("")
                .setProtocolType("consumer");
        harness.request(KafkaFrames.request(request, JOIN_V, ++correlationId, GateHarness.CLIENT_ID));
    }

    private void commit(String group) {
        OffsetCommitRequestData request = new OffsetCommitRequestData()
                .setGroupId(group)
                .setGenerationIdOrMemberEpoch(1)
                .setMemberId("m");
        OffsetCommitRequestData.OffsetCommitRequestTopic topic =
                new OffsetCommitRequestData.OffsetCommitRequestTopic().setName("orders");
        for (int p = 0; p < 2; p++) {
            topic.partitions()
                    .add(new OffsetCommitRequestData.OffsetCommitRequestPartition()
                            .setPartitionIndex(p)
                            .setCommittedOffset(100 + p));
        }
        request.topics().add(topic);
        harness.request(KafkaFrames.request(request, COMMIT_V, ++correlationId, GateHarness.CLIENT_ID));
    }

    private void releaseForwarded() {
        harness.forwarded.forEach(forwarded -> forwarded.frame().release());
        harness.forwarded.clear();
    }

    @Test
    void joinsPastTheRateWaitInSluiceAndTheConnectionTakesNothingBehindThem() {
        limit("orders-*", 6.0, null, null);
        for (int i = 0; i < 6; i++) {
            join("orders-" + (i % 3));
        }
        assertEquals(6, harness.forwarded.size(), "a minute of joins at once, the glob's groups together");
        assertFalse(harness.paused);
        harness.advance(1);
        join("orders-1");
        assertEquals(7, harness.forwarded.size(), "one more once the bucket has anything back");
        join("orders-2");
        assertEquals(7, harness.forwarded.size(), "held");
        assertEquals("HOLD", harness.verdicts.get(harness.verdicts.size() - 1));
        assertTrue(harness.paused, "the connection takes no request behind a held join");
        ThrottledClient throttled = harness.throttled().get(0);
        assertEquals("orders-2", throttled.identity().get("group"));
        assertNull(throttled.topic());
        assertEquals("group", throttled.scope());
        assertEquals("group_joins", throttled.reason());
        assertEquals("delay", throttled.action());
        assertEquals(1, throttled.heldMessages());
        harness.advance(9_990);
        assertEquals(7, harness.forwarded.size(), "a join per 10 s at 6 a minute");
        harness.advance(20);
        assertEquals(8, harness.forwarded.size(), "forwarded in its turn");
        assertEquals(ApiKeys.JOIN_GROUP.id, harness.forwarded.get(7).apiKey());
        assertFalse(harness.paused, "the connection's requests go on");
        harness.advance(200);
        assertTrue(harness.throttled().isEmpty(), "the throttle is over once nothing waits");
        join("billing");
        assertEquals(9, harness.forwarded.size(), "a group no entry names goes at once");
        releaseForwarded();
    }

    @Test
    void rejectAnswersEveryPartitionOfACommitWithTheRetriableRefusal() {
        limit(ScopeKind.DEFAULT_NAME, null, 60.0, OnExceed.REJECT);
        for (int i = 0; i < 60; i++) {
            commit("orders");
        }
        commit("billing");
        assertEquals(61, harness.forwarded.size(), "each group has a bucket of its own");
        commit("orders");
        assertEquals(61, harness.forwarded.size());
        assertFalse(harness.paused, "a refusal holds nothing");
        GateHarness.Answer answer = harness.answers.get(0);
        assertEquals(correlationId, answer.correlationId());
        OffsetCommitResponseData response =
                KafkaFrames.body(answer.frame(), ApiKeys.OFFSET_COMMIT, COMMIT_V, new OffsetCommitResponseData());
        assertEquals("orders", response.topics().get(0).name());
        assertEquals(
                List.of(GroupRequests.REFUSAL.code(), GroupRequests.REFUSAL.code()),
                response.topics().get(0).partitions().stream()
                        .map(OffsetCommitResponseData.OffsetCommitResponsePartition::errorCode)
                        .toList());
        ThrottledClient throttled = harness.throttled().get(0);
        assertEquals("reject", throttled.action());
        assertEquals("group_commits", throttled.reason());
        harness.advance(1_100);
        assertTrue(harness.throttled().isEmpty(), "over once the bucket would admit again");
        commit("orders");
        assertEquals(62, harness.forwarded.size());
        releaseForwarded();
    }

    @Test
    void aWaitLongerThanAClientWaitsIsRefusedInsteadAndNotCharged() {
        limit("orders", 1.0, null, null);
        join("orders");
        harness.advance(1);
        join("orders");
        assertEquals(2, harness.forwarded.size());
        join("orders");
        assertEquals(2, harness.forwarded.size());
        assertEquals(1, harness.answers.size(), "a minute's wait: refused, not held");
        JoinGroupResponseData refused = KafkaFrames.body(
                harness.answers.get(0).frame(), ApiKeys.JOIN_GROUP, JOIN_V, new JoinGroupResponseData());
        assertEquals(GroupRequests.REFUSAL.code(), refused.errorCode());
        assertFalse(harness.paused);
        harness.advance(60_000);
        join("orders");
        assertEquals(3, harness.forwarded.size(), "the refusal was not charged");
        releaseForwarded();
    }

    @Test
    void groupIdsNoLimitCanNameShareOneBucketAndAnUnreadableRequestIsNotCharged() {
        limit(KafkaNames.INVALID_GROUP_ID, 1.0, null, OnExceed.REJECT);
        limit(ScopeKind.DEFAULT_NAME, 1.0, null, OnExceed.REJECT);
        join("a".repeat(300));
        join("b".repeat(300));
        join("bad\u0001group");
        assertEquals(1, harness.forwarded.size(), "every over-long or controlled id is the group (invalid)");
        assertEquals(2, harness.answers.size());
        ByteBuf truncated = KafkaFrames.request(
                new JoinGroupRequestData().setGroupId("orders").setProtocolType("consumer"),
                JOIN_V,
                ++correlationId,
                GateHarness.CLIENT_ID);
        ByteBuf cut = truncated.copy(0, truncated.readableBytes() - 6).setInt(0, truncated.readableBytes() - 10);
        truncated.release();
        assertThrows(MalformedFrameException.class, () -> harness.request(cut));
        join("orders");
        assertEquals(2, harness.forwarded.size(), "the unreadable join charged nothing");
        releaseForwarded();
    }
}
