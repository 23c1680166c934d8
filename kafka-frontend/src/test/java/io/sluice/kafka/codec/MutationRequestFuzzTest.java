package io.sluice.kafka.codec;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.sluice.kafka.testing.KafkaFrames;
import io.sluice.relay.FrameView;
import io.sluice.relay.MalformedFrameException;
import io.sluice.testing.ByteMutator;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.message.CreatePartitionsRequestData;
import org.apache.kafka.common.message.CreatePartitionsResponseData;
import org.apache.kafka.common.message.CreateTopicsRequestData;
import org.apache.kafka.common.message.CreateTopicsResponseData;
import org.apache.kafka.common.message.DeleteTopicsRequestData;
import org.apache.kafka.common.message.DeleteTopicsResponseData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.ApiMessage;
import org.apache.kafka.common.protocol.Errors;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Arbitrary CreateTopics, CreatePartitions and DeleteTopics bodies through {@link MutationRequest},
 * of every version Sluice handles (the first byte picks the request, the second its version): the
 * request is refused as malformed, or every topic's charge is within 0 and
 * {@link MutationRequest#MAX_PARTITIONS}, the request cut to every other topic reads back with just
 * those, and Sluice's answer refusing all (of a version that knows the refusal) reads back as the
 * API's response, a refusal for each topic. Seeds: requests as the Java AdminClient writes them; {@link #generatedInputs} runs a seeded
 * mutation loop in every build.
 */
class MutationRequestFuzzTest {

    private static final HandledApi[] APIS = {
        HandledApi.CREATE_TOPICS, HandledApi.CREATE_PARTITIONS, HandledApi.DELETE_TOPICS
    };
    private static final int GENERATED_INPUTS = 3_000;

    @FuzzTest(maxDuration = "5m")
    void bodies(byte[] input) {
        if (input.length < 2) {
            return;
        }
        HandledApi api = APIS[(input[0] & 0xff) % APIS.length];
        short version = FuzzFrames.version(api.minVersion(), api.maxVersion(), input[1]);
        ApiMessage empty = api == HandledApi.CREATE_TOPICS
                ? new CreateTopicsRequestData()
                : api == HandledApi.CREATE_PARTITIONS
                        ? new CreatePartitionsRequestData()
                        : new DeleteTopicsRequestData();
        ByteBuf frame = FuzzFrames.request(empty, version, Arrays.copyOfRange(input, 2, input.length));
        ByteBuf cut = null;
        ByteBuf answer = null;
        try {
            FrameView view = KafkaFrames.view(frame);
            RequestHeader header = new RequestHeader().read(view);
            MutationRequest request;
            try {
                request = MutationRequest.read(view, header);
            } catch (MalformedFrameException e) {
                return;
            }
            int topics = request.topics();
            boolean[] refused = new boolean[topics];
            int kept = 0;
            for (int i = 0; i < topics; i++) {
                int partitions = request.partitions(i);
                assertTrue(partitions >= 0 && partitions <= MutationRequest.MAX_PARTITIONS, "charge " + partitions);
                refused[i] = i % 2 == 1;
                kept += refused[i] ? 0 : 1;
            }
            if (request.isStrict()) {
                answer = request.answer(ByteBufAllocator.DEFAULT, header.correlationId(), "fuzz", 7);
                assertEquals(topics, refusals(answer, api.key(), version));
            }
            try {
                cut = request.cut(ByteBufAllocator.DEFAULT, view, header, refused);
            } catch (MalformedFrameException unwritable) {
                return;
            }
            assertEquals(kept, topicsIn(cut, api.key(), version));
        } finally {
            frame.release();
            if (cut != null) {
                cut.release();
            }
            if (answer != null) {
                answer.release();
            }
        }
    }

    /** The refusals in Sluice's answer {@code frame}, read as a Java client reads it. */
    private static int refusals(ByteBuf frame, ApiKeys key, short version) {
        short refusal = Errors.THROTTLING_QUOTA_EXCEEDED.code();
        if (key == ApiKeys.CREATE_TOPICS) {
            return (int) KafkaFrames.body(frame, key, version, new CreateTopicsResponseData()).topics().stream()
                    .filter(topic -> topic.errorCode() == refusal)
                    .count();
        }
        if (key == ApiKeys.CREATE_PARTITIONS) {
            return (int) KafkaFrames.body(frame, key, version, new CreatePartitionsResponseData()).results().stream()
                    .filter(topic -> topic.errorCode() == refusal)
                    .count();
        }
        return (int) KafkaFrames.body(frame, key, version, new DeleteTopicsResponseData()).responses().stream()
                .filter(topic -> topic.errorCode() == refusal)
                .count();
    }

    /** The topics the cut request {@code frame} names, read as a broker reads it. */
    private static int topicsIn(ByteBuf frame, ApiKeys key, short version) {
        FrameView view = KafkaFrames.view(frame);
        int body = new RequestHeader().read(view).bodyIndex();
        if (key == ApiKeys.CREATE_TOPICS) {
            return MessageFrames.read(new CreateTopicsRequestData(), view, body, version, "test")
                    .topics()
                    .size();
        }
        if (key == ApiKeys.CREATE_PARTITIONS) {
            return MessageFrames.read(new CreatePartitionsRequestData(), view, body, version, "test")
                    .topics()
                    .size();
        }
        DeleteTopicsRequestData deleted =
                MessageFrames.read(new DeleteTopicsRequestData(), view, body, version, "test");
        return version >= 6 ? deleted.topics().size() : deleted.topicNames().size();
    }

    @Test
    void generatedInputs() {
        List<byte[]> seeds = new ArrayList<>();
        for (short v = HandledApi.CREATE_TOPICS.minVersion(); v <= HandledApi.CREATE_TOPICS.maxVersion(); v++) {
            CreateTopicsRequestData create = new CreateTopicsRequestData().setTimeoutMs(30_000);
            create.topics()
                    .add(new CreateTopicsRequestData.CreatableTopic()
                            .setName("orders")
                            .setNumPartitions(3)
                            .setReplicationFactor((short) 1));
            CreateTopicsRequestData.CreatableTopic assigned = new CreateTopicsRequestData.CreatableTopic()
                    .setName("assigned")
                    .setNumPartitions(-1)
                    .setReplicationFactor((short) -1);
            assigned.assignments()
                    .add(new CreateTopicsRequestData.CreatableReplicaAssignment()
                            .setPartitionIndex(0)
                            .setBrokerIds(List.of(1)));
            create.topics().add(assigned);
            seeds.add(FuzzFrames.seed(0, HandledApi.CREATE_TOPICS.minVersion(), v, create));
        }
        for (short v = HandledApi.CREATE_PARTITIONS.minVersion(); v <= HandledApi.CREATE_PARTITIONS.maxVersion(); v++) {
            CreatePartitionsRequestData add = new CreatePartitionsRequestData().setTimeoutMs(30_000);
            add.topics()
                    .add(new CreatePartitionsRequestData.CreatePartitionsTopic()
                            .setName("orders")
                            .setCount(6));
            add.topics()
                    .add(new CreatePartitionsRequestData.CreatePartitionsTopic()
                            .setName("billing")
                            .setCount(2)
                            .setAssignments(List.of(new CreatePartitionsRequestData.CreatePartitionsAssignment()
                                    .setBrokerIds(List.of(1, 2)))));
            seeds.add(FuzzFrames.seed(1, HandledApi.CREATE_PARTITIONS.minVersion(), v, add));
        }
        for (short v = HandledApi.DELETE_TOPICS.minVersion(); v <= HandledApi.DELETE_TOPICS.maxVersion(); v++) {
            DeleteTopicsRequestData delete = new DeleteTopicsRequestData().setTimeoutMs(30_000);
            if (v >= 6) {
                delete.topics().add(new DeleteTopicsRequestData.DeleteTopicState().setName("orders"));
                delete.topics()
                        .add(new DeleteTopicsRequestData.DeleteTopicState()
                                .setTopicId(Uuid.fromString("Qk5w9dBnSeyqTO2Dg0Yj2A")));
            } else {
                delete.setTopicNames(List.of("orders", "billing"));
            }
            seeds.add(FuzzFrames.seed(2, HandledApi.DELETE_TOPICS.minVersion(), v, delete));
        }
        new ByteMutator(20_261_205L, seeds).feed(GENERATED_INPUTS, input -> bodies(input));
    }
}
