package io.sluice.kafka.gates;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.netty.buffer.ByteBuf;
import io.sluice.kafka.codec.HandledApi;
import io.sluice.kafka.codec.RequestHeader;
import io.sluice.kafka.gates.GateHarness.Answer;
import io.sluice.kafka.gates.GateHarness.Forwarded;
import io.sluice.kafka.testing.KafkaFrames;
import io.sluice.kafka.testing.RecordFrames;
import io.sluice.kafka.testing.RecordFrames.Part;
import io.sluice.limits.Limit;
import io.sluice.limits.OnExceed;
import io.sluice.limits.RateLimit;
import io.sluice.limits.ScopeRef;
import io.sluice.relay.FrameView;
import io.sluice.relay.MalformedFrameException;
import io.sluice.testing.ByteMutator;
import io.sluice.testing.LeakCheck;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.message.FetchRequestData;
import org.apache.kafka.common.message.FetchResponseData;
import org.apache.kafka.common.message.ProduceRequestData;
import org.apache.kafka.common.message.ProduceResponseData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.ByteBufferAccessor;
import org.apache.kafka.common.record.internal.MemoryRecords;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Arbitrary Produce requests and Fetch responses through the gates, with every topic over a tiny
 * proxy-wide limit so that requests are cut, answered and held and responses trimmed. The only
 * exception that may escape is {@link MalformedFrameException}; when Kafka can read the input,
 * Kafka can read everything Sluice makes of it: cut requests hold only partitions of the
 * original, the client's response names exactly the request's partitions in their order, and a
 * trimmed partition keeps a prefix of its records. Every buffer is released.
 *
 * <p>Input: a selector byte (action and acks), then for a Produce request the frame, for a Fetch
 * response the version (int16) and the frame. Seeds are built by kafka-clients ({@link #produceSeeds},
 * {@link #fetchSeeds}).
 */
@ExtendWith(LeakCheck.class)
class GateFuzzTest {

    private static final int GENERATED_INPUTS = 1_500;
    private static final OnExceed[] ACTIONS = OnExceed.values();

    @FuzzTest(maxDuration = "10m")
    void produceRequest(byte[] input) {
        if (input.length < 1) {
            return;
        }
        try (GateHarness harness = new GateHarness()) {
            KafkaGates gates = harness.gates;
            harness.limit(
                    ScopeRef.PROXY,
                    Limit.publish(new RateLimit(1.0, 1.0, null, null))
                            .withOnExceed(ACTIONS[(input[0] & 0xff) % ACTIONS.length]));
            ByteBuf frame = harness.alloc().heapBuffer(input.length - 1).writeBytes(input, 1, input.length - 1);
            ProduceRequestData kafka = produceAsKafkaReads(frame);
            if (kafka != null) {
                int i = 0;
                for (ProduceRequestData.TopicProduceData topic : kafka.topicData()) {
                    knowId(harness, topic.topicId(), i++);
                }
            }
            RequestHeader header = new RequestHeader();
            FrameView lent = KafkaFrames.view(frame);
            try {
                for (int round = 0; round < 2; round++) {
                    header.read(lent);
                    if (header.apiKey() != ApiKeys.PRODUCE.id) {
                        return;
                    }
                    harness.act(gates.produce().request(lent, header), lent, header);
                    // The connection reads nothing more while a request waits for its topic ids.
                    harness.loop.runTasks();
                    assertFalse(harness.paused && gates.produce().isIdle(), "paused with nothing waiting");
                }
                if (kafka != null) {
                    harness.advance(5_000);
                    checkProduce(harness, kafka, header.apiVersion());
                }
            } catch (MalformedFrameException expected) {
                // The proxy closes such a connection.
            } finally {
                frame.release();
            }
            harness.close();
            assertEquals(0, harness.unreleasedBytes(), "buffers left unreleased");
        }
    }

    @FuzzTest(maxDuration = "10m")
    void fetchResponse(byte[] input) {
        if (input.length < 3) {
            return;
        }
        HandledApi api = HandledApi.FETCH;
        short version = (short) (api.minVersion()
                + Math.floorMod(ByteBuffer.wrap(input, 1, 2).getShort(), api.maxVersion() - api.minVersion() + 1));
        try (GateHarness harness = new GateHarness()) {
            KafkaGates gates = harness.gates;
            harness.limit(
                    ScopeRef.PROXY,
                    Limit.dispatch(new RateLimit(3.0, 200.0, null, null))
                            .withOnExceed(ACTIONS[(input[0] & 0xff) % ACTIONS.length]));
            harness.request(
                    KafkaFrames.request(new FetchRequestData().setMaxWaitMs(500).setReplicaId(-1), version, 1, "fuzz"));
            Forwarded forwarded = harness.takeForwarded();
            forwarded.frame().release();
            ByteBuf frame = harness.alloc().heapBuffer(input.length - 3).writeBytes(input, 3, input.length - 3);
            FetchResponseData kafka = fetchAsKafkaReads(frame, version);
            if (kafka != null) {
                int i = 0;
                for (FetchResponseData.FetchableTopicResponse topic : kafka.responses()) {
                    knowId(harness, topic.topicId(), i++);
                }
            }
            ByteBuf out;
            try {
                out = harness.complete(forwarded, frame);
            } catch (MalformedFrameException expected) {
                harness.close();
                assertEquals(0, harness.unreleasedBytes(), "buffers left unreleased");
                return;
            }
            try {
                if (kafka != null) {
                    FetchResponseData trimmed = RecordFrames.readFetch(out, version);
                    checkUnknownIdsCut(harness, trimmed, version);
                    checkTrimmed(kafka, trimmed);
                }
            } finally {
                out.release();
            }
            harness.close();
            assertEquals(0, harness.unreleasedBytes(), "buffers left unreleased");
        }
    }

    /**
     * Topic {@code i} of an input: its id learnt from a response through Sluice, known only to the
     * cluster (Sluice's own lookup finds it), or known nowhere, in turn.
     */
    private static void knowId(GateHarness harness, Uuid id, int i) {
        switch (i % 3) {
            case 0 -> harness.topicIds.learn(id, "topic-" + i);
            case 1 -> harness.clusterTopicIds.put(id, "topic-" + i);
            default -> {}
        }
    }

    /** No records of a topic id Sluice could not name reach the client: they were never charged. */
    private static void checkUnknownIdsCut(GateHarness harness, FetchResponseData response, short version) {
        if (version < 13) {
            return;
        }
        for (FetchResponseData.FetchableTopicResponse topic : response.responses()) {
            if (harness.topicIds.name(topic.topicId()) == null) {
                for (FetchResponseData.PartitionData partition : topic.partitions()) {
                    assertEquals(0, records(partition).remaining(), "records of an unknown topic id forwarded");
                }
            }
        }
    }

    private static void checkProduce(GateHarness harness, ProduceRequestData original, short version) {
        List<String> requested = partitions(original);
        for (Forwarded forwarded : new ArrayList<>(harness.forwarded)) {
            harness.forwarded.remove(forwarded);
            ProduceRequestData cut = RecordFrames.readProduce(forwarded.frame(), version);
            assertTrue(requested.containsAll(partitions(cut)), "forwarded a partition the client did not send");
            assertNamed(harness, cut, version);
            ByteBuf response = harness.respond(forwarded, RecordFrames.produceResponse(cut, version));
            assertEquals(
                    requested,
                    partitions(RecordFrames.readProduceResponse(response, version)),
                    "the response does not mirror the request");
        }
        for (Answer answer : harness.answers) {
            assertEquals(
                    requested,
                    partitions(RecordFrames.readProduceResponse(answer.frame(), version)),
                    "Sluice's answer does not mirror the request");
        }
        for (ByteBuf unanswered : harness.upstream) {
            ProduceRequestData sent = RecordFrames.readProduce(unanswered, version);
            assertTrue(requested.containsAll(partitions(sent)));
            assertNamed(harness, sent, version);
        }
    }

    /** Every topic id of a request on its way to the broker is one Sluice charged by name. */
    private static void assertNamed(GateHarness harness, ProduceRequestData sent, short version) {
        if (version >= 13) {
            sent.topicData()
                    .forEach(t -> assertTrue(
                            harness.topicIds.name(t.topicId()) != null, "topic id " + t.topicId() + " sent unmetered"));
        }
    }

    private static void checkTrimmed(FetchResponseData original, FetchResponseData trimmed) {
        assertEquals(original.responses().size(), trimmed.responses().size());
        for (int t = 0; t < original.responses().size(); t++) {
            List<FetchResponseData.PartitionData> before =
                    original.responses().get(t).partitions();
            List<FetchResponseData.PartitionData> after =
                    trimmed.responses().get(t).partitions();
            assertEquals(before.size(), after.size());
            for (int p = 0; p < before.size(); p++) {
                ByteBuffer was = records(before.get(p));
                ByteBuffer is = records(after.get(p));
                assertTrue(
                        is.remaining() <= was.remaining()
                                && was.slice(was.position(), is.remaining()).equals(is),
                        "a trimmed partition keeps a prefix of its records");
                before.get(p).setRecords(null);
                after.get(p).setRecords(null);
            }
        }
        trimmed.setThrottleTimeMs(original.throttleTimeMs());
        assertEquals(original, trimmed, "only records and the throttle time change");
    }

    private static ByteBuffer records(FetchResponseData.PartitionData partition) {
        return partition.records() == null
                ? ByteBuffer.allocate(0)
                : ((MemoryRecords) partition.records()).buffer().duplicate();
    }

    private static List<String> partitions(ProduceRequestData data) {
        List<String> names = new ArrayList<>();
        data.topicData()
                .forEach(t -> t.partitionData().forEach(p -> names.add(t.name() + t.topicId() + "-" + p.index())));
        return names;
    }

    private static List<String> partitions(ProduceResponseData data) {
        List<String> names = new ArrayList<>();
        data.responses()
                .forEach(t -> t.partitionResponses().forEach(p -> names.add(t.name() + t.topicId() + "-" + p.index())));
        return names;
    }

    private static ProduceRequestData produceAsKafkaReads(ByteBuf frame) {
        try {
            ByteBuffer bytes = ByteBuffer.wrap(KafkaFrames.frameBytes(frame));
            if (bytes.remaining() < 4 || bytes.getInt() != bytes.remaining()) {
                return null;
            }
            org.apache.kafka.common.requests.RequestHeader header =
                    org.apache.kafka.common.requests.RequestHeader.parse(bytes);
            if (header.apiKey() != ApiKeys.PRODUCE || !HandledApi.PRODUCE.supports(header.apiVersion())) {
                return null;
            }
            ProduceRequestData data = new ProduceRequestData(new ByteBufferAccessor(bytes), header.apiVersion());
            return bytes.hasRemaining() ? null : data;
        } catch (RuntimeException unreadable) {
            return null;
        }
    }

    private static FetchResponseData fetchAsKafkaReads(ByteBuf frame, short version) {
        try {
            ByteBuffer bytes = ByteBuffer.wrap(KafkaFrames.frameBytes(frame));
            if (bytes.remaining() < 4 || bytes.getInt() != bytes.remaining()) {
                return null;
            }
            org.apache.kafka.common.requests.ResponseHeader.parse(bytes, ApiKeys.FETCH.responseHeaderVersion(version));
            FetchResponseData data = new FetchResponseData(new ByteBufferAccessor(bytes), version);
            return bytes.hasRemaining() ? null : data;
        } catch (RuntimeException unreadable) {
            return null;
        }
    }

    @Test
    void generatedInputs() {
        ByteMutator produce = new ByteMutator(14_001L, produceSeeds());
        ByteMutator fetch = new ByteMutator(14_002L, fetchSeeds());
        for (int i = 0; i < GENERATED_INPUTS; i++) {
            run(produce.next(), true);
            run(fetch.next(), false);
        }
    }

    @Test
    void seedsPassAsTheyAre() {
        produceSeeds().forEach(seed -> run(seed, true));
        fetchSeeds().forEach(seed -> run(seed, false));
    }

    private void run(byte[] input, boolean produce) {
        try {
            if (produce) {
                produceRequest(input);
            } else {
                fetchResponse(input);
            }
        } catch (RuntimeException | AssertionError e) {
            throw new AssertionError(
                    (produce ? "produce" : "fetch") + " input " + HexFormat.of().formatHex(input), e);
        }
    }

    /** Requests of several versions, topics and partitions, plain and idempotent, answered and not, for each action. */
    static List<byte[]> produceSeeds() {
        List<byte[]> seeds = new ArrayList<>();
        short[] versions = {3, 7, 9, 12, 13};
        for (int selector = 0; selector < 6; selector++) {
            short version = versions[selector % versions.length];
            short acks = (short) (selector % 3 == 2 ? 0 : -1);
            ByteBuf frame = RecordFrames.produceRequest(
                    version,
                    acks,
                    7,
                    "fuzz",
                    new Part("a", Uuid.randomUuid(), 0, RecordFrames.batch(3, 20)),
                    new Part("a", null, 1, RecordFrames.idempotent(9, (short) 0, 0, 2, 5)),
                    new Part("b", Uuid.randomUuid(), 0, RecordFrames.batches(0, 1, 4)));
            byte[] bytes = KafkaFrames.frameBytes(frame);
            frame.release();
            ByteBuffer seed =
                    ByteBuffer.allocate(1 + bytes.length).put((byte) selector).put(bytes);
            seeds.add(seed.array());
        }
        return seeds;
    }

    /** Responses of several versions with several batches per partition, for each action. */
    static List<byte[]> fetchSeeds() {
        List<byte[]> seeds = new ArrayList<>();
        short[] versions = {4, 8, 12, 13, 18};
        for (int selector = 0; selector < 6; selector++) {
            short version = versions[selector % versions.length];
            ByteBuf frame = RecordFrames.fetchResponse(
                    version,
                    1,
                    new Part("a", Uuid.randomUuid(), 0, RecordFrames.batches(0, 2, 2, 2)),
                    new Part("a", null, 1, RecordFrames.batches(5, 1)),
                    new Part("b", Uuid.randomUuid(), 3, RecordFrames.batches(0, 3, 3)));
            byte[] bytes = KafkaFrames.frameBytes(frame);
            frame.release();
            seeds.add(ByteBuffer.allocate(3 + bytes.length)
                    .put((byte) selector)
                    .putShort((short) (version - HandledApi.FETCH.minVersion()))
                    .put(bytes)
                    .array());
        }
        return seeds;
    }
}
