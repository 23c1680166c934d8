package io.sluice.kafka.codec;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.sluice.kafka.testing.RecordFrames;
import org.apache.kafka.common.compress.Compression;
import org.apache.kafka.common.record.internal.MemoryRecords;
import org.apache.kafka.common.record.internal.SimpleRecord;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Record counts and bytes from batch headers alone, against batches kafka-clients wrote. */
class RecordBatchesTest {

    private final RecordBatches batches = new RecordBatches();

    private static ByteBuf buffer(MemoryRecords records) {
        return Unpooled.wrappedBuffer(records.buffer().duplicate());
    }

    @Test
    void countsRecordsAndBytesOfEveryBatchAsTheBrokerStoresThem() {
        MemoryRecords records = RecordFrames.batches(0, 3, 5, 1);
        ByteBuf buf = buffer(records);
        batches.count(buf, 0, buf.readableBytes());
        assertEquals(3, batches.batches());
        assertEquals(9, batches.records());
        assertEquals(records.sizeInBytes(), batches.bytes());
        assertEquals(records.sizeInBytes(), batches.completeBytes());
        assertFalse(batches.idempotent(), "a plain producer's batch has no producer id");
    }

    @Test
    void aCompressedBatchIsCountedFromItsHeaderWithoutDecompressing() {
        // The frontend leaves the compression libraries out: reading the records would fail.
        MemoryRecords records = MemoryRecords.withRecords(
                Compression.gzip().build(),
                new SimpleRecord("a".getBytes()),
                new SimpleRecord("b".getBytes()),
                new SimpleRecord("c".getBytes()));
        ByteBuf buf = buffer(records);
        batches.count(buf, 0, buf.readableBytes());
        assertEquals(1, batches.batches());
        assertEquals(3, batches.records());
    }

    @Test
    void readsTheFirstBatchsProducerFields() {
        ByteBuf buf = buffer(RecordFrames.idempotent(42, (short) 3, 17, 4, 10));
        batches.count(buf, 0, buf.readableBytes());
        assertTrue(batches.idempotent());
        assertEquals(42, batches.producerId());
        assertEquals(3, batches.producerEpoch());
        assertEquals(17, batches.baseSequence());
        assertEquals(4, batches.records());
    }

    @Test
    void aBatchCutShortAtTheEndCountsInBytesOnly() {
        MemoryRecords records = RecordFrames.batches(0, 2, 2);
        ByteBuf buf = buffer(records);
        int firstSize = RecordBatches.batchSize(buf, 0, buf.readableBytes());
        batches.count(buf, 0, buf.readableBytes() - 5);
        assertEquals(1, batches.batches());
        assertEquals(2, batches.records());
        assertEquals(buf.readableBytes() - 5, batches.bytes());
        assertEquals(firstSize, batches.completeBytes());
    }

    @Test
    void aLengthTooSmallForAHeaderOrPastTheEndIsNoBatch() {
        ByteBuf buf = buffer(RecordFrames.batch(1, 10));
        ByteBuf small = Unpooled.copiedBuffer(buf);
        small.setInt(8, 10);
        assertEquals(0, RecordBatches.batchSize(small, 0, small.readableBytes()));
        ByteBuf large = Unpooled.copiedBuffer(buf);
        large.setInt(8, Integer.MAX_VALUE);
        assertEquals(0, RecordBatches.batchSize(large, 0, large.readableBytes()));
        batches.count(large, 0, large.readableBytes());
        assertEquals(0, batches.records());
        assertEquals(large.readableBytes(), batches.bytes(), "every byte still counts against a byte rate");
    }

    @Test
    void nullRecordsCountNothing() {
        batches.count(Unpooled.EMPTY_BUFFER, 0, -1);
        assertEquals(0, batches.bytes());
        assertEquals(0, batches.batches());
    }

    @Test
    void anUncompressedBatchClaimingMoreRecordsThanItsBytesHoldIsNoted() {
        MemoryRecords records = RecordFrames.batches(0, 3, 1);
        ByteBuf buf = buffer(records);
        batches.count(buf, 0, buf.readableBytes());
        assertEquals(-1, batches.overclaimingCount(), "real batches claim what they hold");
        int second = RecordBatches.batchSize(buf, 0, buf.readableBytes());
        buf.setInt(second + 57, 1_000);
        batches.count(buf, 0, buf.readableBytes());
        assertEquals(1_000, batches.overclaimingCount());
    }

    @Test
    void aBatchOfSmallestRecordsIsBelieved() {
        MemoryRecords records = RecordFrames.batch(50, 0);
        ByteBuf buf = buffer(records);
        batches.count(buf, 0, buf.readableBytes());
        assertEquals(-1, batches.overclaimingCount());
        assertEquals(50, batches.records());
    }
}
