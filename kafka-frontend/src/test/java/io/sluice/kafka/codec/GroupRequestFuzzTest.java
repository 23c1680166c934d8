package io.sluice.kafka.codec;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.sluice.kafka.testing.KafkaFrames;
import io.sluice.relay.FrameView;
import io.sluice.relay.MalformedFrameException;
import io.sluice.testing.ByteMutator;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.message.JoinGroupRequestData;
import org.apache.kafka.common.message.JoinGroupResponseData;
import org.apache.kafka.common.message.OffsetCommitRequestData;
import org.apache.kafka.common.message.OffsetCommitResponseData;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

/**
 * Arbitrary JoinGroup and OffsetCommit bodies through {@link GroupRequests}, of every version
 * Sluice handles (the first byte picks the request, the second its version): a group id comes out or
 * the request is refused as malformed, nothing else escapes; and a request that reads has a refusal
 * a Java client reads, answering each partition the request names. Seeds: requests as stock
 * clients write them; {@link #generatedInputs} runs a seeded mutation loop in every build.
 */
class GroupRequestFuzzTest {

    private static final HandledApi[] APIS = {HandledApi.JOIN_GROUP, HandledApi.OFFSET_COMMIT};
    private static final int GENERATED_INPUTS = 3_000;

    @FuzzTest(maxDuration = "5m")
    void bodies(byte[] input) {
        if (input.length < 2) {
            return;
        }
        HandledApi api = APIS[(input[0] & 0xff) % APIS.length];
        short version = FuzzFrames.version(api.minVersion(), api.maxVersion(), input[1]);
        ByteBuf frame = FuzzFrames.request(
                api == HandledApi.JOIN_GROUP ? new JoinGroupRequestData() : new OffsetCommitRequestData(),
                version,
                Arrays.copyOfRange(input, 2, input.length));
        ByteBuf refusal = null;
        try {
            FrameView view = KafkaFrames.view(frame);
            RequestHeader header = new RequestHeader().read(view);
            String group;
            try {
                group = GroupRequests.groupId(view, header);
            } catch (MalformedFrameException e) {
                return;
            }
            assertNotNull(group);
            refusal = GroupRequests.refusal(ByteBufAllocator.DEFAULT, view, header);
            if (api == HandledApi.JOIN_GROUP) {
                assertEquals(
                        GroupRequests.REFUSAL.code(),
                        KafkaFrames.body(refusal, api.key(), version, new JoinGroupResponseData())
                                .errorCode());
            } else {
                KafkaFrames.body(refusal, api.key(), version, new OffsetCommitResponseData());
            }
        } finally {
            frame.release();
            if (refusal != null) {
                refusal.release();
            }
        }
    }

    @Test
    void generatedInputs() {
        List<byte[]> seeds = new ArrayList<>();
        for (short v = HandledApi.JOIN_GROUP.minVersion(); v <= HandledApi.JOIN_GROUP.maxVersion(); v++) {
            JoinGroupRequestData join = new JoinGroupRequestData()
                    .setGroupId("orders")
                    .setSessionTimeoutMs(45_000)
                    .setRebalanceTimeoutMs(300_000)
                    .setMemberId("consumer-1-abc")
                    .setProtocolType("consumer");
            join.protocols()
                    .add(new JoinGroupRequestData.JoinGroupRequestProtocol()
                            .setName("range")
                            .setMetadata(new byte[] {0, 3, 0, 0}));
            seeds.add(FuzzFrames.seed(0, HandledApi.JOIN_GROUP.minVersion(), v, join));
        }
        for (short v = HandledApi.OFFSET_COMMIT.minVersion(); v <= HandledApi.OFFSET_COMMIT.maxVersion(); v++) {
            OffsetCommitRequestData commit =
                    new OffsetCommitRequestData().setGroupId("orders").setMemberId("m");
            OffsetCommitRequestData.OffsetCommitRequestTopic topic =
                    new OffsetCommitRequestData.OffsetCommitRequestTopic()
                            .setName(v < 10 ? "orders" : "")
                            .setTopicId(v < 10 ? Uuid.ZERO_UUID : Uuid.fromString("Qk5w9dBnSeyqTO2Dg0Yj2A"));
            topic.partitions()
                    .add(new OffsetCommitRequestData.OffsetCommitRequestPartition()
                            .setPartitionIndex(3)
                            .setCommittedOffset(42));
            commit.topics().add(topic);
            seeds.add(FuzzFrames.seed(1, HandledApi.OFFSET_COMMIT.minVersion(), v, commit));
        }
        new ByteMutator(20_261_205L, seeds).feed(GENERATED_INPUTS, input -> bodies(input));
    }
}
