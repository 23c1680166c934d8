package io.sluice.kafka.codec;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.sluice.kafka.testing.BrokerResponses;
import io.sluice.kafka.testing.KafkaFrames;
import io.sluice.relay.MalformedFrameException;
import io.sluice.testing.LeakCheck;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

@ExtendWith(LeakCheck.class)
class NodeEndpointsProbeTest {

    private static final HandledApi[] CARRIERS = {
        HandledApi.PRODUCE, HandledApi.FETCH, HandledApi.SHARE_FETCH, HandledApi.SHARE_ACKNOWLEDGE
    };

    private final WireCursor cursor = new WireCursor();

    @Test
    void findsNodeEndpointsInEveryVersionThatHasThemAndOnlyThere() {
        int found = 0;
        for (HandledApi api : CARRIERS) {
            for (short version = api.minVersion(); version <= api.maxVersion(); version++) {
                for (boolean with : new boolean[] {false, true}) {
                    ByteBuf frame = KafkaFrames.response(BrokerResponses.of(api.key(), version, with), version, 3);
                    try {
                        int bodyIndex =
                                ResponseHeader.bodyIndex(KafkaFrames.view(frame), api.key().id, version, cursor);
                        boolean expected = with && hasNodeEndpoints(api, version);
                        assertEquals(
                                expected,
                                NodeEndpointsProbe.carriesNodeEndpoints(
                                        api, version, KafkaFrames.view(frame), bodyIndex, cursor),
                                api + " v" + version + (with ? " with" : " without") + " endpoints");
                        found += expected ? 1 : 0;
                    } finally {
                        frame.release();
                    }
                }
            }
        }
        assertEquals(4 + 3 + 2 + 2, found);
    }

    /** To say "none" the probe walks the whole body; a truncation after the endpoints is the rewriter's to find. */
    @Test
    void rejectsABodyThatEndsTooSoon() {
        for (HandledApi api : CARRIERS) {
            ByteBuf frame =
                    KafkaFrames.response(BrokerResponses.of(api.key(), api.maxVersion(), false), api.maxVersion(), 3);
            try {
                int bodyIndex =
                        ResponseHeader.bodyIndex(KafkaFrames.view(frame), api.key().id, api.maxVersion(), cursor);
                for (int end = bodyIndex; end < frame.writerIndex(); end += 3) {
                    ByteBuf cut = frame.retainedSlice(0, end);
                    try {
                        MalformedFrameException e = assertThrows(
                                MalformedFrameException.class,
                                () -> NodeEndpointsProbe.carriesNodeEndpoints(
                                        api, api.maxVersion(), KafkaFrames.view(cut), bodyIndex, cursor),
                                api + " cut at " + end);
                        assertEquals("bad_response_body", e.reason());
                    } finally {
                        cut.release();
                    }
                }
            } finally {
                frame.release();
            }
        }
    }

    /** kafka-clients keeps the last of a repeated tag: an empty first one must not hide a second. */
    @Test
    void looksAtEveryOccurrenceOfARepeatedTag() {
        ByteBuf plain = KafkaFrames.response(BrokerResponses.produce((short) 12, false), (short) 12, 3);
        byte[] host = BrokerResponses.host(2).getBytes(java.nio.charset.StandardCharsets.UTF_8);
        ByteBuf endpoints = Unpooled.buffer()
                .writeByte(2)
                .writeInt(2)
                .writeByte(host.length + 1)
                .writeBytes(host)
                .writeInt(BrokerResponses.port(2))
                .writeByte(0)
                .writeByte(0);
        ByteBuf frame = Unpooled.buffer();
        frame.writeInt(0).writeBytes(plain, 4, plain.readableBytes() - 5);
        frame.writeByte(2).writeByte(0).writeByte(1).writeByte(1);
        frame.writeByte(0).writeByte(endpoints.readableBytes()).writeBytes(endpoints);
        frame.setInt(0, frame.readableBytes() - 4);
        try {
            assertEquals(0, plain.getByte(plain.writerIndex() - 1), "the plain response ends with no tagged fields");
            int bodyIndex =
                    ResponseHeader.bodyIndex(KafkaFrames.view(frame), HandledApi.PRODUCE.key().id, (short) 12, cursor);
            assertTrue(NodeEndpointsProbe.carriesNodeEndpoints(
                    HandledApi.PRODUCE, (short) 12, KafkaFrames.view(frame), bodyIndex, cursor));
        } finally {
            plain.release();
            endpoints.release();
            frame.release();
        }
    }

    /** kafka-clients reads a known tag by its type and ignores its declared size: so must the probe. */
    @Test
    void readsAKnownTagByItsTypeWhateverSizeItClaims() {
        ByteBuf frame = KafkaFrames.response(BrokerResponses.produce((short) 12, true), (short) 12, 3);
        try {
            // Partition 1's current leader: one tagged field, tag 0, 9 bytes (leader 2, epoch 5, no tags).
            byte[] currentLeader = {1, 0, 9, 0, 0, 0, 2, 0, 0, 0, 5, 0};
            int at = ByteBufUtil.indexOf(Unpooled.wrappedBuffer(currentLeader), frame);
            assertTrue(at > 0, "current leader not found");
            frame.setByte(at + 2, 0);
            org.apache.kafka.common.message.ProduceResponseData kafka = KafkaFrames.body(
                    frame,
                    HandledApi.PRODUCE.key(),
                    (short) 12,
                    new org.apache.kafka.common.message.ProduceResponseData());
            assertEquals(1, kafka.nodeEndpoints().size(), "kafka-clients still sees the endpoint");
            int bodyIndex =
                    ResponseHeader.bodyIndex(KafkaFrames.view(frame), HandledApi.PRODUCE.key().id, (short) 12, cursor);
            assertTrue(NodeEndpointsProbe.carriesNodeEndpoints(
                    HandledApi.PRODUCE, (short) 12, KafkaFrames.view(frame), bodyIndex, cursor));
        } finally {
            frame.release();
        }
    }

    @Test
    void refusesResponsesThatCannotCarryThem() {
        assertThrows(
                IllegalArgumentException.class,
                () -> NodeEndpointsProbe.carriesNodeEndpoints(HandledApi.METADATA, (short) 12, null, 0, cursor));
        assertThrows(
                IllegalArgumentException.class,
                () -> NodeEndpointsProbe.carriesNodeEndpoints(HandledApi.PRODUCE, (short) 2, null, 0, cursor));
        assertTrue(HandledApi.PRODUCE.supports((short) 10));
    }

    private static boolean hasNodeEndpoints(HandledApi api, short version) {
        return switch (api) {
            case PRODUCE -> version >= 10;
            case FETCH -> version >= 16;
            default -> true;
        };
    }
}
