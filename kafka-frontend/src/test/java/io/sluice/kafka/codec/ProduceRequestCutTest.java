package io.sluice.kafka.codec;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.UnpooledByteBufAllocator;
import io.sluice.kafka.testing.KafkaFrames;
import io.sluice.kafka.testing.RecordFrames;
import io.sluice.kafka.testing.RecordFrames.Part;
import io.sluice.testing.LeakCheck;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.message.ProduceRequestData;
import org.apache.kafka.common.record.internal.MemoryRecords;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.BitSet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** A Produce request cut to some partitions reads, as a broker reads it, as the request of just those. */
@ExtendWith(LeakCheck.class)
class ProduceRequestCutTest {

    private static final Uuid ORDERS = Uuid.randomUuid();
    private static final Uuid AUDIT = Uuid.randomUuid();
    private static final MemoryRecords A = RecordFrames.batch(2, 10);
    private static final MemoryRecords B = RecordFrames.batch(5, 30);
    private static final MemoryRecords C = RecordFrames.batch(1, 100);

    private final PartitionRecords parts = new PartitionRecords();
    private final RequestHeader header = new RequestHeader();
    private final WireCursor cursor = new WireCursor();
    private final UnpooledByteBufAllocator alloc = new UnpooledByteBufAllocator(false);

    private ByteBuf request(short version) {
        ByteBuf frame = RecordFrames.produceRequest(
                version,
                (short) -1,
                77,
                "app",
                new Part("orders", ORDERS, 0, A),
                new Part("orders", ORDERS, 3, B),
                new Part("audit", AUDIT, 1, C));
        header.read(KafkaFrames.view(frame));
        parts.readProduceRequest(KafkaFrames.view(frame), header.bodyIndex(), version, cursor);
        return frame;
    }

    private static BitSet of(int... partitions) {
        BitSet set = new BitSet();
        for (int p : partitions) {
            set.set(p);
        }
        return set;
    }

    /** The request of {@link #request} cut to {@code keep}, as a broker reads it; its header is the original's. */
    private ProduceRequestData cut(short version, int... keep) {
        ByteBuf frame = request(version);
        ByteBuf cut = ProduceRequestCut.keep(alloc, parts, of(keep));
        try {
            RequestHeader cutHeader = new RequestHeader().read(KafkaFrames.view(cut));
            assertEquals(77, cutHeader.correlationId());
            assertEquals("app", cutHeader.clientId(KafkaFrames.view(cut)));
            return RecordFrames.readProduce(cut, version);
        } finally {
            cut.release();
            frame.release();
        }
    }

    @ParameterizedTest
    @ValueSource(shorts = {3, 8, 9, 12, 13})
    void keepsTheChosenPartitionsAndEverythingElseOfTheRequest(short version) {
        ProduceRequestData expected = RecordFrames.produce(
                version, (short) -1, new Part("orders", ORDERS, 3, B), new Part("audit", AUDIT, 1, C));
        assertEquals(expected, cut(version, 1, 2));
    }

    @Test
    void dropsATopicLeftWithoutPartitions() {
        ProduceRequestData data = cut((short) 9, 2);
        assertEquals(1, data.topicData().size());
        assertNull(data.topicData().find("orders", Uuid.ZERO_UUID));
    }

    @Test
    void recordsAreSlicesOfTheRequestNotCopies() {
        short version = 13;
        ByteBuf frame = request(version);
        ByteBuf cut = ProduceRequestCut.keep(alloc, parts, of(0));
        try {
            int last = parts.recordsStart(0) + parts.recordsLength(0) - 1;
            PartitionRecords cutParts = new PartitionRecords();
            cutParts.readProduceRequest(
                    KafkaFrames.view(cut), header.read(KafkaFrames.view(cut)).bodyIndex(), version, cursor);
            int cutLast = cutParts.recordsStart(0) + cutParts.recordsLength(0) - 1;
            frame.setByte(last, frame.getByte(last) ^ 0x55);
            assertEquals(frame.getByte(last), cut.getByte(cutLast), "the cut sees a change to the original's records");
        } finally {
            cut.release();
            frame.release();
        }
    }

    @Test
    void aCutKeepsAtLeastOnePartition() {
        ByteBuf frame = request((short) 9);
        try {
            assertThrows(IllegalArgumentException.class, () -> ProduceRequestCut.keep(alloc, parts, new BitSet()));
        } finally {
            frame.release();
        }
    }
}
