package io.sluice.server.it.kafka;

import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.compress.Compression;
import org.apache.kafka.common.message.ProduceRequestData;
import org.apache.kafka.common.message.ProduceResponseData;
import org.apache.kafka.common.message.RequestHeaderData;
import org.apache.kafka.common.message.ResponseHeaderData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.ByteBufferAccessor;
import org.apache.kafka.common.record.internal.MemoryRecords;
import org.apache.kafka.common.record.internal.SimpleRecord;
import org.apache.kafka.common.requests.RequestUtils;

import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * Kafka requests written by hand over a plain socket, for what a stock client would not do on its
 * own: a Produce v13 naming a topic by an id the Sluice it goes through never saw; a stream of
 * unacknowledged produce requests, each under another client id.
 */
final class RawKafkaClient implements AutoCloseable {

    private final Socket socket;
    private final OutputStream out;
    private final DataInputStream in;
    private int correlationId;

    RawKafkaClient(int port) throws IOException {
        socket = new Socket("127.0.0.1", port);
        socket.setSoTimeout(60_000);
        out = new BufferedOutputStream(socket.getOutputStream(), 64 * 1024);
        in = new DataInputStream(socket.getInputStream());
    }

    /**
     * Produces {@code records} records to partition {@code partition} of the topic with id
     * {@code topicId} (Produce v13, acks=1); returns the partition's error code.
     */
    short produceById(Uuid topicId, int partition, int records) throws IOException {
        SimpleRecord[] batch = new SimpleRecord[records];
        for (int i = 0; i < records; i++) {
            batch[i] = new SimpleRecord(("raw-" + i).getBytes(StandardCharsets.UTF_8));
        }
        short version = 13;
        int id = writeProduce(
                version,
                (short) 1,
                "raw-it",
                new ProduceRequestData.TopicProduceData().setTopicId(topicId),
                partition,
                MemoryRecords.withRecords(Compression.NONE, batch));
        return produceError(id, version);
    }

    /**
     * Produces one record to partition {@code partition} of {@code topic} (Produce v9, acks=1) under
     * client id {@code clientId}; returns the partition's error code.
     */
    short produce(String clientId, String topic, int partition) throws IOException {
        short version = 9;
        int id = writeProduce(version, (short) 1, clientId, topic, partition);
        return produceError(id, version);
    }

    /** Sends ApiVersions v0 and reads its answer, as every client does first: the broker's answer ends Sluice's handshake deadline. */
    void apiVersions() throws IOException {
        int id = ++correlationId;
        ByteBuffer request = ByteBuffer.allocate(14)
                .putInt(10)
                .putShort(ApiKeys.API_VERSIONS.id)
                .putShort((short) 0)
                .putInt(id)
                .putShort((short) -1);
        out.write(request.array());
        out.flush();
        byte[] bytes = new byte[in.readInt()];
        in.readFully(bytes);
        if (ByteBuffer.wrap(bytes).getInt() != id) {
            throw new IOException("ApiVersions answered with another correlation id");
        }
    }

    /**
     * Writes a Produce v9 of one record to partition {@code partition} of {@code topic} with acks=0,
     * under client id {@code clientId}: no answer comes. Buffered until {@link #flush}.
     */
    void produceUnacknowledged(String clientId, String topic, int partition) throws IOException {
        writeProduce((short) 9, (short) 0, clientId, topic, partition);
    }

    /** Writes a Produce of one small record to {@code topic} (by name), unflushed; returns its correlation id. */
    private int writeProduce(short version, short acks, String clientId, String topic, int partition)
            throws IOException {
        return writeProduce(
                version,
                acks,
                clientId,
                new ProduceRequestData.TopicProduceData().setName(topic),
                partition,
                MemoryRecords.withRecords(Compression.NONE, new SimpleRecord(new byte[8])));
    }

    /** Writes a Produce of {@code records} to {@code topic}'s partition, flushed when it awaits an answer. */
    private int writeProduce(
            short version,
            short acks,
            String clientId,
            ProduceRequestData.TopicProduceData topic,
            int partition,
            MemoryRecords records)
            throws IOException {
        ProduceRequestData request = new ProduceRequestData().setAcks(acks).setTimeoutMs(30_000);
        topic.partitionData()
                .add(new ProduceRequestData.PartitionProduceData()
                        .setIndex(partition)
                        .setRecords(records));
        request.topicData().add(topic);
        int id = ++correlationId;
        RequestHeaderData header = new RequestHeaderData()
                .setRequestApiKey(ApiKeys.PRODUCE.id)
                .setRequestApiVersion(version)
                .setCorrelationId(id)
                .setClientId(clientId);
        ByteBuffer message =
                RequestUtils.serialize(header, ApiKeys.PRODUCE.requestHeaderVersion(version), request, version);
        out.write(ByteBuffer.allocate(4).putInt(message.remaining()).array());
        out.write(message.array(), message.arrayOffset() + message.position(), message.remaining());
        if (acks != 0) {
            out.flush();
        }
        return id;
    }

    /** Reads the answer to Produce {@code id} of {@code version}; returns its first partition's error code. */
    private short produceError(int id, short version) throws IOException {
        byte[] bytes = new byte[in.readInt()];
        in.readFully(bytes);
        ByteBufferAccessor reader = new ByteBufferAccessor(ByteBuffer.wrap(bytes));
        ResponseHeaderData responseHeader =
                new ResponseHeaderData(reader, ApiKeys.PRODUCE.responseHeaderVersion(version));
        if (responseHeader.correlationId() != id) {
            throw new IOException("response " + responseHeader.correlationId() + " to request " + id);
        }
        return new ProduceResponseData(reader, version)
                .responses()
                .iterator()
                .next()
                .partitionResponses()
                .get(0)
                .errorCode();
    }

    void flush() throws IOException {
        out.flush();
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
