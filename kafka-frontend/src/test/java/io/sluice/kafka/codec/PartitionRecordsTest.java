package io.sluice.kafka.codec;

import io.netty.buffer.ByteBuf;
import io.sluice.kafka.testing.KafkaFrames;
import io.sluice.kafka.testing.RecordFrames;
import io.sluice.kafka.testing.RecordFrames.Part;
import io.sluice.relay.MalformedFrameException;
import io.sluice.testing.LeakCheck;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.record.internal.MemoryRecords;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Every partition's records found in place, in every version Sluice handles, against frames kafka-clients wrote. */
@ExtendWith(LeakCheck.class)
class PartitionRecordsTest {

    private static final Uuid ORDERS = Uuid.randomUuid();
    private static final Uuid AUDIT = Uuid.randomUuid();

    private final PartitionRecords parts = new PartitionRecords();
    private final RequestHeader header = new RequestHeader();
    private final WireCursor cursor = new WireCursor();

    private static final MemoryRecords A = RecordFrames.batch(2, 10);
    private static final MemoryRecords B = RecordFrames.batch(5, 30);
    private static final MemoryRecords C = RecordFrames.batches(7, 1, 1);

    private static Part[] parts() {
        return new Part[] {
            new Part("orders", ORDERS, 0, A), new Part("orders", ORDERS, 3, B), new Part("audit", AUDIT, 1, C)
        };
    }

    @ParameterizedTest
    @ValueSource(shorts = {3, 7, 8, 9, 12, 13})
    void findsEachPartitionOfAProduceRequest(short version) {
        ByteBuf frame = RecordFrames.produceRequest(version, (short) -1, 5, "app", parts());
        try {
            header.read(KafkaFrames.view(frame));
            parts.readProduceRequest(KafkaFrames.view(frame), header.bodyIndex(), version, cursor);
            assertLayout(frame, version >= 13);
        } finally {
            frame.release();
        }
    }

    @ParameterizedTest
    @ValueSource(shorts = {4, 7, 11, 12, 13, 16, 18})
    void findsEachPartitionOfAFetchResponse(short version) {
        ByteBuf frame = RecordFrames.fetchResponse(version, 5, parts());
        try {
            int bodyIndex =
                    ResponseHeader.bodyIndex(KafkaFrames.view(frame), HandledApi.FETCH.key().id, version, cursor);
            parts.readFetchResponse(KafkaFrames.view(frame), bodyIndex, version, cursor);
            assertLayout(frame, version >= 13);
        } finally {
            frame.release();
        }
    }

    private void assertLayout(ByteBuf frame, boolean byId) {
        assertEquals(2, parts.topicCount());
        assertEquals(3, parts.partitionCount());
        assertEquals(byId, parts.topicsById());
        if (byId) {
            assertEquals(ORDERS, new Uuid(parts.topicIdMsb(0), parts.topicIdLsb(0)));
            assertEquals(AUDIT, new Uuid(parts.topicIdMsb(1), parts.topicIdLsb(1)));
        } else {
            assertEquals(
                    "orders",
                    frame.toString(parts.topicNameIndex(0), parts.topicNameLength(0), StandardCharsets.UTF_8));
            assertEquals(
                    "audit", frame.toString(parts.topicNameIndex(1), parts.topicNameLength(1), StandardCharsets.UTF_8));
        }
        assertEquals(0, parts.firstPartition(0));
        assertEquals(2, parts.endPartition(0));
        assertEquals(3, parts.endPartition(1));
        assertEquals(1, parts.topicOf(2));
        int[] indexes = {0, 3, 1};
        MemoryRecords[] records = {A, B, C};
        for (int p = 0; p < 3; p++) {
            assertEquals(indexes[p], parts.partitionIndex(p));
            assertEquals(records[p].sizeInBytes(), parts.recordsLength(p));
            assertEquals(
                    records[p].buffer().duplicate(),
                    ByteBuffer.wrap(bytes(frame, parts.recordsStart(p), parts.recordsLength(p))),
                    "partition " + p + "'s records are the very bytes written");
        }
    }

    @ParameterizedTest
    @ValueSource(shorts = {3, 9, 13})
    void aRequestCutShortIsMalformed(short version) {
        ByteBuf frame = RecordFrames.produceRequest(version, (short) -1, 5, "app", parts());
        try {
            header.read(KafkaFrames.view(frame));
            ByteBuf shorter = frame.slice(frame.readerIndex(), frame.readableBytes() - 40);
            MalformedFrameException e = assertThrows(
                    MalformedFrameException.class,
                    () -> parts.readProduceRequest(KafkaFrames.view(shorter), header.bodyIndex(), version, cursor));
            assertEquals("bad_produce", e.reason());
        } finally {
            frame.release();
        }
    }

    @ParameterizedTest
    @ValueSource(shorts = {3, 13})
    void nullRecordsAreFoundAsNull(short version) {
        ByteBuf frame = RecordFrames.produceRequest(version, (short) 1, 5, "app", new Part("orders", ORDERS, 0, null));
        try {
            header.read(KafkaFrames.view(frame));
            parts.readProduceRequest(KafkaFrames.view(frame), header.bodyIndex(), version, cursor);
            assertEquals(1, parts.partitionCount());
            assertEquals(-1, parts.recordsLength(0));
            assertFalse(parts.topicCount() != 1);
            assertTrue(parts.recordsStart(0) > header.bodyIndex());
        } finally {
            frame.release();
        }
    }

    private static byte[] bytes(ByteBuf frame, int index, int length) {
        byte[] bytes = new byte[length];
        frame.getBytes(index, bytes);
        return bytes;
    }
}
