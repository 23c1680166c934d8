package io.sluice.kafka.testing;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.compress.Compression;
import org.apache.kafka.common.message.FetchResponseData;
import org.apache.kafka.common.message.ProduceRequestData;
import org.apache.kafka.common.message.ProduceResponseData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.ByteBufferAccessor;
import org.apache.kafka.common.record.TimestampType;
import org.apache.kafka.common.record.internal.MemoryRecords;
import org.apache.kafka.common.record.internal.MemoryRecordsBuilder;
import org.apache.kafka.common.record.internal.RecordBatch;
import org.apache.kafka.common.record.internal.SimpleRecord;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Produce requests and Fetch responses with real record batches, as kafka-clients writes them,
 * and the same read back as a broker or client reads them.
 */
public final class RecordFrames {

    private RecordFrames() {}

    /** One partition's records in a request or response. */
    public record Part(String topic, Uuid topicId, int partition, MemoryRecords records) {}

    /** {@code count} records of {@code valueBytes} each in one batch, written by a plain producer. */
    public static MemoryRecords batch(int count, int valueBytes) {
        return MemoryRecords.withRecords(Compression.NONE, records(count, valueBytes));
    }

    /** {@code count} records in one batch of an idempotent producer, first sequence {@code sequence}. */
    public static MemoryRecords idempotent(long producerId, short epoch, int sequence, int count, int valueBytes) {
        return MemoryRecords.withIdempotentRecords(
                Compression.NONE, producerId, epoch, sequence, records(count, valueBytes));
    }

    /** Several batches back to back, as a fetch returns them, offsets following on from {@code firstOffset}. */
    public static MemoryRecords batches(long firstOffset, int... counts) {
        ByteBuffer buffer = ByteBuffer.allocate(1 << 20);
        long offset = firstOffset;
        for (int count : counts) {
            MemoryRecordsBuilder builder = MemoryRecords.builder(
                    buffer, RecordBatch.CURRENT_MAGIC_VALUE, Compression.NONE, TimestampType.CREATE_TIME, offset);
            for (SimpleRecord record : records(count, 10)) {
                builder.append(record);
            }
            builder.close();
            offset += count;
        }
        buffer.flip();
        return MemoryRecords.readableRecords(buffer);
    }

    private static SimpleRecord[] records(int count, int valueBytes) {
        SimpleRecord[] records = new SimpleRecord[count];
        for (int i = 0; i < count; i++) {
            byte[] value = new byte[valueBytes];
            Arrays.fill(value, (byte) ('a' + i % 26));
            records[i] = new SimpleRecord(1_000L + i, null, value);
        }
        return records;
    }

    /** A Produce request body: the parts grouped by topic in the order given. */
    public static ProduceRequestData produce(short version, short acks, Part... parts) {
        ProduceRequestData data = new ProduceRequestData().setAcks(acks).setTimeoutMs(30_000);
        Map<String, ProduceRequestData.TopicProduceData> topics = new LinkedHashMap<>();
        for (Part part : parts) {
            ProduceRequestData.TopicProduceData topic = topics.computeIfAbsent(
                    part.topic(),
                    name -> version >= 13
                            ? new ProduceRequestData.TopicProduceData().setTopicId(part.topicId())
                            : new ProduceRequestData.TopicProduceData().setName(name));
            topic.partitionData()
                    .add(new ProduceRequestData.PartitionProduceData()
                            .setIndex(part.partition())
                            .setRecords(part.records()));
        }
        topics.values().forEach(data.topicData()::add);
        return data;
    }

    /** A Produce request frame. */
    public static ByteBuf produceRequest(short version, short acks, int correlationId, String clientId, Part... parts) {
        return KafkaFrames.request(produce(version, acks, parts), version, correlationId, clientId);
    }

    /** A request frame read as a broker reads it; the frame keeps its indexes. */
    public static ProduceRequestData readProduce(ByteBuf frame, short version) {
        ByteBuffer bytes = ByteBuffer.wrap(KafkaFrames.frameBytes(frame));
        int size = bytes.getInt();
        if (size != bytes.remaining()) {
            throw new AssertionError("size prefix " + size + " but " + bytes.remaining() + " bytes follow");
        }
        org.apache.kafka.common.requests.RequestHeader.parse(bytes);
        ProduceRequestData data = new ProduceRequestData();
        data.read(new ByteBufferAccessor(bytes), version);
        if (bytes.hasRemaining()) {
            throw new AssertionError(bytes.remaining() + " bytes after the body");
        }
        return data;
    }

    /** What a broker answers to {@code request}: every partition written at offset 100. */
    public static ProduceResponseData produceResponse(ProduceRequestData request, short version) {
        ProduceResponseData response = new ProduceResponseData();
        for (ProduceRequestData.TopicProduceData topic : request.topicData()) {
            ProduceResponseData.TopicProduceResponse out = new ProduceResponseData.TopicProduceResponse();
            if (version >= 13) {
                out.setTopicId(topic.topicId());
            } else {
                out.setName(topic.name());
            }
            for (ProduceRequestData.PartitionProduceData partition : topic.partitionData()) {
                out.partitionResponses()
                        .add(new ProduceResponseData.PartitionProduceResponse()
                                .setIndex(partition.index())
                                .setBaseOffset(100));
            }
            response.responses().add(out);
        }
        return response;
    }

    /** A Fetch response body with the parts' records, grouped by topic in the order given. */
    public static FetchResponseData fetch(short version, Part... parts) {
        FetchResponseData data = new FetchResponseData();
        Map<String, FetchResponseData.FetchableTopicResponse> topics = new LinkedHashMap<>();
        for (Part part : parts) {
            FetchResponseData.FetchableTopicResponse topic = topics.computeIfAbsent(
                    part.topic(),
                    name -> version >= 13
                            ? new FetchResponseData.FetchableTopicResponse().setTopicId(part.topicId())
                            : new FetchResponseData.FetchableTopicResponse().setTopic(name));
            topic.partitions()
                    .add(new FetchResponseData.PartitionData()
                            .setPartitionIndex(part.partition())
                            .setHighWatermark(1_000)
                            .setRecords(part.records()));
        }
        data.setResponses(new ArrayList<>(topics.values()));
        return data;
    }

    /** A Fetch response frame. */
    public static ByteBuf fetchResponse(short version, int correlationId, Part... parts) {
        return KafkaFrames.response(fetch(version, parts), version, correlationId);
    }

    /** A response frame read as a client reads it. */
    public static FetchResponseData readFetch(ByteBuf frame, short version) {
        return KafkaFrames.body(frame, ApiKeys.FETCH, version, new FetchResponseData());
    }

    /** A response frame read as a client reads it. */
    public static ProduceResponseData readProduceResponse(ByteBuf frame, short version) {
        return KafkaFrames.body(frame, ApiKeys.PRODUCE, version, new ProduceResponseData());
    }

    /** The record counts of each batch of {@code records}. */
    public static List<Integer> batchCounts(MemoryRecords records) {
        List<Integer> counts = new ArrayList<>();
        records.batches().forEach(batch -> counts.add(batch.countOrNull()));
        return counts;
    }

    /** A copy of a frame in a buffer of its own. */
    public static ByteBuf copy(ByteBuf frame) {
        return Unpooled.copiedBuffer(frame);
    }
}
