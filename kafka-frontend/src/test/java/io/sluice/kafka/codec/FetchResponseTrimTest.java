package io.sluice.kafka.codec;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.UnpooledByteBufAllocator;
import io.sluice.kafka.testing.KafkaFrames;
import io.sluice.kafka.testing.RecordFrames;
import io.sluice.kafka.testing.RecordFrames.Part;
import io.sluice.testing.LeakCheck;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.message.FetchResponseData;
import org.apache.kafka.common.record.internal.MemoryRecords;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** A Fetch response trimmed at batch boundaries reads, as a client reads it, as the same response with fewer batches. */
@ExtendWith(LeakCheck.class)
class FetchResponseTrimTest {

    private static final Uuid ORDERS = Uuid.randomUuid();
    private static final Uuid AUDIT = Uuid.randomUuid();

    private final PartitionRecords parts = new PartitionRecords();
    private final WireCursor cursor = new WireCursor();
    private final UnpooledByteBufAllocator alloc = new UnpooledByteBufAllocator(false);

    @ParameterizedTest
    @ValueSource(shorts = {4, 11, 12, 13, 16, 18})
    void cutsOnlyThePartitionsAskedAtTheBatchBoundaryAsked(short version) {
        MemoryRecords orders0 = RecordFrames.batches(0, 3, 4, 5);
        MemoryRecords orders1 = RecordFrames.batches(10, 2, 2);
        MemoryRecords audit = RecordFrames.batches(0, 1);
        ByteBuf frame = RecordFrames.fetchResponse(
                version,
                9,
                new Part("orders", ORDERS, 0, orders0),
                new Part("orders", ORDERS, 1, orders1),
                new Part("audit", AUDIT, 0, audit));
        parts.readFetchResponse(
                KafkaFrames.view(frame),
                ResponseHeader.bodyIndex(KafkaFrames.view(frame), HandledApi.FETCH.key().id, version, cursor),
                version,
                cursor);
        int firstBatch =
                RecordBatches.batchSize(frame, parts.recordsStart(0), parts.recordsStart(0) + parts.recordsLength(0));
        RecordsKept kept = new RecordsKept();
        kept.reset(3);
        kept.cut(0, firstBatch);
        kept.cut(1, 0);
        ByteBuf trimmed = FetchResponseTrim.trim(alloc, parts, kept);
        try {
            assertEquals(9, ResponseHeader.correlationId(KafkaFrames.view(trimmed)));
            FetchResponseData data = RecordFrames.readFetch(trimmed, version);
            List<FetchResponseData.PartitionData> ordersParts =
                    data.responses().get(0).partitions();
            assertEquals(List.of(3), RecordFrames.batchCounts((MemoryRecords)
                    ordersParts.get(0).records()));
            assertEquals(0, ordersParts.get(1).records().sizeInBytes());
            assertEquals(1_000, ordersParts.get(1).highWatermark(), "everything but the records is the broker's");
            assertEquals(audit, data.responses().get(1).partitions().get(0).records());
            FetchResponseData original = RecordFrames.readFetch(frame, version);
            original.responses().get(0).partitions().get(0).setRecords(RecordFrames.batches(0, 3));
            original.responses().get(0).partitions().get(1).setRecords(MemoryRecords.EMPTY);
            assertEquals(original, data);
        } finally {
            trimmed.release();
            frame.release();
        }
    }
}
