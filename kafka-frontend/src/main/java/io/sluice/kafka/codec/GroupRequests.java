package io.sluice.kafka.codec;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.sluice.relay.FrameView;
import org.apache.kafka.common.message.JoinGroupRequestData;
import org.apache.kafka.common.message.JoinGroupResponseData;
import org.apache.kafka.common.message.OffsetCommitRequestData;
import org.apache.kafka.common.message.OffsetCommitResponseData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.ApiMessage;
import org.apache.kafka.common.protocol.Errors;

/**
 * The consumer group requests Sluice limits by group (docs/KAFKA.md, "Consumer group storms"):
 * JoinGroup and OffsetCommit, each read whole, so that a group id is counted only from a request
 * the broker could read too, and Sluice's retriable refusal of one.
 *
 * <p>A refusal is {@link #REFUSAL} (COORDINATOR_LOAD_IN_PROGRESS): Kafka has no quota error for
 * these requests, and this is the one error both the Java client and librdkafka take as "retry
 * the same request after a back-off" for both, keeping the member id, the generation and the
 * coordinator (COORDINATOR_NOT_AVAILABLE and NOT_COORDINATOR would send the client looking for
 * its coordinator again, REBALANCE_IN_PROGRESS is fatal to a Java JoinGroup). No version of
 * either response carries a message. Stateless.
 */
public final class GroupRequests {

    /** The error of a JoinGroup or OffsetCommit Sluice refuses. */
    public static final Errors REFUSAL = Errors.COORDINATOR_LOAD_IN_PROGRESS;

    private static final short JOIN_GROUP = ApiKeys.JOIN_GROUP.id;
    private static final short OFFSET_COMMIT = ApiKeys.OFFSET_COMMIT.id;

    private GroupRequests() {}

    /** Whether {@code apiKey} is JoinGroup or OffsetCommit. */
    public static boolean isGroupRequest(short apiKey) {
        return apiKey == JOIN_GROUP || apiKey == OFFSET_COMMIT;
    }

    /** Whether {@code apiKey} is JoinGroup. */
    public static boolean isJoin(short apiKey) {
        return apiKey == JOIN_GROUP;
    }

    /**
     * The group id of the JoinGroup or OffsetCommit request {@code header} was read from, read whole
     * from the lent {@code frame}, which is left as it was (allocates: these come once per member
     * and rebalance, or commit). The id is as the client wrote it, of any length: the caller bounds
     * it. An unreadable request raises a {@code MalformedFrameException}.
     */
    public static String groupId(FrameView frame, RequestHeader header) {
        ApiMessage request = read(frame, header);
        return request instanceof JoinGroupRequestData join
                ? join.groupId()
                : ((OffsetCommitRequestData) request).groupId();
    }

    /**
     * Sluice's refusal of the JoinGroup or OffsetCommit request {@code header} was read from
     * ({@code frame}): {@link #REFUSAL} for the join, or for every partition the commit names. The
     * caller owns the answer; {@code frame} is left as it was.
     */
    public static ByteBuf refusal(ByteBufAllocator alloc, FrameView frame, RequestHeader header) {
        short version = header.apiVersion();
        ApiMessage body;
        if (header.apiKey() == JOIN_GROUP) {
            body = new JoinGroupResponseData().setErrorCode(REFUSAL.code());
        } else {
            OffsetCommitRequestData request = (OffsetCommitRequestData) read(frame, header);
            OffsetCommitResponseData response = new OffsetCommitResponseData();
            for (OffsetCommitRequestData.OffsetCommitRequestTopic topic : request.topics()) {
                OffsetCommitResponseData.OffsetCommitResponseTopic answered =
                        new OffsetCommitResponseData.OffsetCommitResponseTopic()
                                .setName(topic.name())
                                .setTopicId(topic.topicId());
                for (OffsetCommitRequestData.OffsetCommitRequestPartition partition : topic.partitions()) {
                    answered.partitions()
                            .add(new OffsetCommitResponseData.OffsetCommitResponsePartition()
                                    .setPartitionIndex(partition.partitionIndex())
                                    .setErrorCode(REFUSAL.code()));
                }
                response.topics().add(answered);
            }
            body = response;
        }
        return MessageFrames.response(alloc, header.correlationId(), body, version);
    }

    private static ApiMessage read(FrameView frame, RequestHeader header) {
        short key = header.apiKey();
        if (key == JOIN_GROUP) {
            return MessageFrames.read(
                    new JoinGroupRequestData(), frame, header.bodyIndex(), header.apiVersion(), "bad_join_group");
        }
        if (key == OFFSET_COMMIT) {
            return MessageFrames.read(
                    new OffsetCommitRequestData(), frame, header.bodyIndex(), header.apiVersion(), "bad_offset_commit");
        }
        throw new IllegalArgumentException("API key " + key + " is no group request");
    }
}
