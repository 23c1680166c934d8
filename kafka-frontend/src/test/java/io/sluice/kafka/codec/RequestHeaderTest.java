package io.sluice.kafka.codec;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.sluice.kafka.testing.KafkaFrames;
import io.sluice.relay.MalformedFrameException;
import io.sluice.testing.LeakCheck;
import org.apache.kafka.common.message.ApiVersionsRequestData;
import org.apache.kafka.common.message.MetadataRequestData;
import org.apache.kafka.common.message.SaslHandshakeRequestData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.types.RawTaggedField;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.nio.ByteBuffer;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

@ExtendWith(LeakCheck.class)
class RequestHeaderTest {

    private final RequestHeader header = new RequestHeader();

    @Test
    void readsTheHeaderOfEveryVersionOfEveryApiWhereKafkaDoes() {
        int checked = 0;
        for (ApiKeys key : ApiKeys.values()) {
            if (!key.hasValidVersion()) {
                continue;
            }
            HandledApi handled = HandledApi.of(key.id);
            for (short version = key.oldestVersion(); version <= key.latestVersion(true); version++) {
                if (handled != null && !handled.supports(version)) {
                    continue;
                }
                ByteBuf frame =
                        KafkaFrames.request(key.messageType.newRequest(), version, 1000 + version, "producer-1");
                int readerIndex = frame.readerIndex();
                try {
                    header.read(KafkaFrames.view(frame));
                    String what = key + " v" + version;
                    assertEquals(key.id, header.apiKey(), what);
                    assertEquals(version, header.apiVersion(), what);
                    assertEquals(1000 + version, header.correlationId(), what);
                    assertEquals("producer-1", header.clientId(KafkaFrames.view(frame)), what);
                    assertEquals(kafkaBodyIndex(frame), header.bodyIndex(), what);
                    assertEquals(readerIndex, frame.readerIndex(), what);
                    assertFalse(header.isNewerApiVersions(), what);
                    checked++;
                } finally {
                    frame.release();
                }
            }
        }
        assertTrue(checked > 250, "only " + checked + " API versions checked");
    }

    @Test
    void skipsTaggedFieldsOfHeaderV2AndReadsANullOrNonAsciiClientId() {
        List<RawTaggedField> tags =
                List.of(new RawTaggedField(0, new byte[] {1, 2, 3}), new RawTaggedField(7, new byte[200]));
        ByteBuf tagged = KafkaFrames.request(new MetadataRequestData(), (short) 12, 5, "client-é", tags);
        ByteBuf anonymous = KafkaFrames.request(new MetadataRequestData(), (short) 12, 6, null);
        try {
            header.read(KafkaFrames.view(tagged));
            assertEquals("client-é", header.clientId(KafkaFrames.view(tagged)));
            assertEquals(kafkaBodyIndex(tagged), header.bodyIndex());
            header.read(KafkaFrames.view(anonymous));
            assertFalse(header.hasClientId());
            assertNull(header.clientId(KafkaFrames.view(anonymous)));
            assertEquals(kafkaBodyIndex(anonymous), header.bodyIndex());
        } finally {
            tagged.release();
            anonymous.release();
        }
    }

    @Test
    void rejectsApiKeysSluiceDoesNotKnow() {
        for (int key : new int[] {-1, 4, 7, 200, Short.MAX_VALUE}) {
            assertReason("unknown_api_key", frameOf((short) key, (short) 0));
        }
    }

    @Test
    void rejectsVersionsOfHandledApisOutsideWhatSluiceHandles() {
        assertReason("unsupported_api_version", frameOf(ApiKeys.PRODUCE.id, (short) 2));
        assertReason("unsupported_api_version", frameOf(ApiKeys.PRODUCE.id, (short) 14));
        assertReason("unsupported_api_version", frameOf(ApiKeys.FETCH.id, (short) 3));
        assertReason("unsupported_api_version", frameOf(ApiKeys.METADATA.id, (short) 14));
        assertReason("unsupported_api_version", frameOf(ApiKeys.JOIN_GROUP.id, (short) -1));
        ByteBuf v2 = KafkaFrames.request(new SaslHandshakeRequestData().setMechanism("PLAIN"), (short) 1, 1, "c");
        v2.setShort(6, 2);
        assertReason("unsupported_api_version", v2);
    }

    @Test
    void passesVersionsOfOtherApisNewerThanKafkaClientsKnows() {
        ByteBuf frame = frameOf(ApiKeys.SYNC_GROUP.id, (short) (ApiKeys.SYNC_GROUP.latestVersion(true) + 5));
        try {
            header.read(KafkaFrames.view(frame));
            assertEquals(ApiKeys.SYNC_GROUP.id, header.apiKey());
        } finally {
            frame.release();
        }
    }

    @Test
    void flagsAnApiVersionsRequestNewerThanSluiceHandles() {
        ByteBuf newer = KafkaFrames.request(new ApiVersionsRequestData(), (short) 4, 1, "c");
        newer.setShort(6, HandledApi.API_VERSIONS.maxVersion() + 1);
        ByteBuf current =
                KafkaFrames.request(new ApiVersionsRequestData(), HandledApi.API_VERSIONS.maxVersion(), 2, "c");
        try {
            assertTrue(header.read(KafkaFrames.view(newer)).isNewerApiVersions());
            assertFalse(header.read(KafkaFrames.view(current)).isNewerApiVersions());
        } finally {
            newer.release();
            current.release();
        }
    }

    @Test
    void rejectsTruncatedHeaders() {
        ByteBuf full = KafkaFrames.request(
                new MetadataRequestData(), (short) 12, 5, "a-client-id", List.of(new RawTaggedField(1, new byte[10])));
        try {
            int fullLength = full.readableBytes();
            int bodyIndex = header.read(KafkaFrames.view(full)).bodyIndex();
            for (int length = 0; length < bodyIndex; length++) {
                ByteBuf cut = full.retainedSlice(0, length);
                MalformedFrameException e = assertThrows(
                        MalformedFrameException.class, () -> header.read(KafkaFrames.view(cut)), "cut at " + length);
                assertEquals("bad_header", e.reason());
                cut.release();
            }
            assertTrue(bodyIndex < fullLength);
        } finally {
            full.release();
        }
        ByteBuf negativeClientId = Unpooled.buffer()
                .writeInt(10)
                .writeShort(3)
                .writeShort(12)
                .writeInt(1)
                .writeShort(-2);
        assertReason("bad_header", negativeClientId);
    }

    /** Where kafka-clients' own header parser stops, as an index into the frame. */
    private static int kafkaBodyIndex(ByteBuf frame) {
        ByteBuffer bytes = ByteBuffer.wrap(KafkaFrames.frameBytes(frame));
        bytes.position(4);
        org.apache.kafka.common.requests.RequestHeader.parse(bytes);
        return bytes.position();
    }

    private static ByteBuf frameOf(short apiKey, short version) {
        return Unpooled.buffer()
                .writeInt(12)
                .writeShort(apiKey)
                .writeShort(version)
                .writeInt(1)
                .writeShort(-1)
                .writeByte(0);
    }

    private void assertReason(String reason, ByteBuf frame) {
        try {
            MalformedFrameException e =
                    assertThrows(MalformedFrameException.class, () -> header.read(KafkaFrames.view(frame)));
            assertEquals(reason, e.reason(), e.getMessage());
        } finally {
            frame.release();
        }
    }
}
