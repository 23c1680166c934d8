package io.sluice.kafka.codec;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.sluice.kafka.testing.BrokerResponses;
import io.sluice.kafka.testing.KafkaFrames;
import io.sluice.relay.FrameView;
import io.sluice.relay.MalformedFrameException;
import io.sluice.testing.ByteMutator;
import io.sluice.testing.FuzzCorpus;
import io.sluice.testing.LeakCheck;
import org.apache.kafka.common.message.ProduceResponseData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The partitions a Produce response refuses, found in place ({@link ProduceResponseScan}) and then named. */
@ExtendWith(LeakCheck.class)
class ProduceErrorsTest {

    private final WireCursor cursor = new WireCursor();
    private final ProduceResponseScan scan = new ProduceResponseScan();

    @ParameterizedTest
    @ValueSource(shorts = {3, 5, 8, 9, 10, 11, 13})
    void findsARefusedPartitionInEveryVersion(short version) {
        ByteBuf frame = KafkaFrames.response(BrokerResponses.produce(version, true), version, 1);
        try {
            int bodyIndex = ResponseHeader.bodyIndex(KafkaFrames.view(frame), ApiKeys.PRODUCE.id, version, cursor);
            scan.read(KafkaFrames.view(frame), bodyIndex, version, cursor);
            assertTrue(scan.refusesAny());
            List<ProduceErrors.Refused> refused = ProduceErrors.refused(KafkaFrames.view(frame), bodyIndex, version);
            assertEquals(1, refused.size());
            assertEquals(1, refused.get(0).partition());
            assertEquals(version >= 13 ? "" : "orders", refused.get(0).topic());
        } finally {
            frame.release();
        }
    }

    @ParameterizedTest
    @ValueSource(shorts = {3, 9, 13})
    void aResponseThatRefusesNothingSaysSo(short version) {
        ProduceResponseData data = BrokerResponses.produce(version, true);
        data.responses().forEach(t -> t.partitionResponses().forEach(p -> p.setErrorCode((short) 0)));
        ByteBuf frame = KafkaFrames.response(data, version, 1);
        try {
            int bodyIndex = ResponseHeader.bodyIndex(KafkaFrames.view(frame), ApiKeys.PRODUCE.id, version, cursor);
            scan.read(KafkaFrames.view(frame), bodyIndex, version, cursor);
            assertFalse(scan.refusesAny());
        } finally {
            frame.release();
        }
    }

    /**
     * Arbitrary bytes as a Produce response body: the in-place reader and the full one agree on
     * whether a partition is refused, the one walk and the probe on node endpoints, and nothing but {@link MalformedFrameException} escapes.
     * Input: the version (an int16 mapped onto the handled ones), then the body.
     */
    @FuzzTest(maxDuration = "5m")
    void produceResponseBody(byte[] input) {
        if (input.length < 2) {
            return;
        }
        HandledApi api = HandledApi.PRODUCE;
        short version = (short) (api.minVersion()
                + Math.floorMod(ByteBuffer.wrap(input).getShort(), api.maxVersion() - api.minVersion() + 1));
        ByteBuf frame = Unpooled.buffer().writeInt(input.length - 2).writeBytes(input, 2, input.length - 2);
        try {
            FrameView view = KafkaFrames.view(frame);
            boolean any;
            try {
                scan.read(view, 4, version, cursor);
                any = scan.refusesAny();
            } catch (MalformedFrameException unreadable) {
                return;
            }
            assertEquals(
                    NodeEndpointsProbe.carriesNodeEndpoints(api, version, view, 4, new WireCursor()),
                    scan.carriesNodeEndpoints(),
                    "the one walk and the probe disagree on node endpoints, v" + version);
            List<ProduceErrors.Refused> refused;
            try {
                refused = ProduceErrors.refused(view, 4, version);
            } catch (MalformedFrameException unreadable) {
                return; // the full reader is stricter (trailing bytes, tags): the slow path then refunds nothing
            }
            assertEquals(any, !refused.isEmpty(), "the two readers disagree, v" + version);
        } finally {
            frame.release();
        }
    }

    @Test
    void generatedInputs() {
        List<byte[]> seeds = new ArrayList<>(FuzzCorpus.of(ProduceErrorsTest.class, "produceResponseBody"));
        for (short version = HandledApi.PRODUCE.minVersion(); version <= HandledApi.PRODUCE.maxVersion(); version++) {
            ByteBuf frame = KafkaFrames.response(BrokerResponses.produce(version, true), version, 1);
            int bodyIndex = ResponseHeader.bodyIndex(KafkaFrames.view(frame), ApiKeys.PRODUCE.id, version, cursor);
            byte[] body = new byte[frame.writerIndex() - bodyIndex];
            frame.getBytes(bodyIndex, body);
            frame.release();
            seeds.add(ByteBuffer.allocate(2 + body.length)
                    .putShort((short) (version - HandledApi.PRODUCE.minVersion()))
                    .put(body)
                    .array());
        }
        new ByteMutator(32L, seeds).feed(2_000, input -> produceResponseBody(input));
    }
}
