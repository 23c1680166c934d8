package io.sluice.server.it.kafka;

import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.compress.Compression;
import org.apache.kafka.common.message.ProduceRequestData;
import org.apache.kafka.common.message.ProduceResponseData;
import org.apache.kafka.common.message.RequestHeaderData;
import org.apache.kafka.common.message.ResponseHeaderData;
import org.apache.kafka.common.message.SaslAuthenticateRequestData;
import org.apache.kafka.common.message.SaslAuthenticateResponseData;
import org.apache.kafka.common.message.SaslHandshakeRequestData;
import org.apache.kafka.common.message.SaslHandshakeResponseData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.ApiMessage;
import org.apache.kafka.common.protocol.ByteBufferAccessor;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.record.internal.MemoryRecords;
import org.apache.kafka.common.record.internal.SimpleRecord;
import org.apache.kafka.common.requests.RequestUtils;

import java.io.DataInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * Kafka requests written by hand over a plain socket, for what a stock client would not do on its
 * own: a Produce v13 naming a topic by an id the Sluice it goes through never saw.
 */
final class RawKafkaClient implements AutoCloseable {

    private final Socket socket;
    private final OutputStream out;
    private final DataInputStream in;
    private int correlationId;

    RawKafkaClient(int port) throws IOException {
        socket = new Socket("127.0.0.1", port);
        socket.setSoTimeout(60_000);
        out = socket.getOutputStream();
        in = new DataInputStream(socket.getInputStream());
    }

    /**
     * Produces {@code records} records to partition {@code partition} of the topic with id
     * {@code topicId} (Produce v13, acks=1); returns the partition's error code.
     */
    short produceById(Uuid topicId, int partition, int records) throws IOException {
        return produce(
                (short) 13, new ProduceRequestData.TopicProduceData().setTopicId(topicId), partition, batch(records));
    }

    /**
     * Produces {@code batch}, as it is, to partition {@code partition} of {@code topic} (Produce v11,
     * acks=1); returns the partition's error code.
     */
    short produce(String topic, int partition, MemoryRecords batch) throws IOException {
        return produce((short) 11, new ProduceRequestData.TopicProduceData().setName(topic), partition, batch);
    }

    /** One uncompressed batch of {@code records} small records. */
    static MemoryRecords batch(int records) {
        SimpleRecord[] batch = new SimpleRecord[records];
        for (int i = 0; i < records; i++) {
            batch[i] = new SimpleRecord(("raw-" + i).getBytes(StandardCharsets.UTF_8));
        }
        return MemoryRecords.withRecords(Compression.NONE, batch);
    }

    /** Logs in with SASL/PLAIN, as the broker's SASL listener wants before anything else. */
    void loginPlain(String user, String password) throws IOException {
        SaslHandshakeResponseData handshake = exchange(
                ApiKeys.SASL_HANDSHAKE,
                (short) 1,
                new SaslHandshakeRequestData().setMechanism("PLAIN"),
                new SaslHandshakeResponseData());
        if (handshake.errorCode() != 0) {
            throw new IOException("SaslHandshake: " + Errors.forCode(handshake.errorCode()));
        }
        SaslAuthenticateResponseData login = exchange(
                ApiKeys.SASL_AUTHENTICATE,
                (short) 2,
                new SaslAuthenticateRequestData()
                        .setAuthBytes(("\0" + user + "\0" + password).getBytes(StandardCharsets.UTF_8)),
                new SaslAuthenticateResponseData());
        if (login.errorCode() != 0) {
            throw new IOException("SaslAuthenticate: " + Errors.forCode(login.errorCode()));
        }
    }

    private short produce(short version, ProduceRequestData.TopicProduceData topic, int partition, MemoryRecords batch)
            throws IOException {
        ProduceRequestData request = new ProduceRequestData().setAcks((short) 1).setTimeoutMs(30_000);
        topic.partitionData()
                .add(new ProduceRequestData.PartitionProduceData()
                        .setIndex(partition)
                        .setRecords(batch));
        request.topicData().add(topic);
        ProduceResponseData response = exchange(ApiKeys.PRODUCE, version, request, new ProduceResponseData());
        return response.responses()
                .iterator()
                .next()
                .partitionResponses()
                .get(0)
                .errorCode();
    }

    /** Writes {@code request} as {@code api} v{@code version} and reads its response into {@code response}. */
    private <T extends ApiMessage> T exchange(ApiKeys api, short version, ApiMessage request, T response)
            throws IOException {
        int id = ++correlationId;
        RequestHeaderData header = new RequestHeaderData()
                .setRequestApiKey(api.id)
                .setRequestApiVersion(version)
                .setCorrelationId(id)
                .setClientId("raw-it");
        ByteBuffer message = RequestUtils.serialize(header, api.requestHeaderVersion(version), request, version);
        ByteBuffer frame = ByteBuffer.allocate(4 + message.remaining())
                .putInt(message.remaining())
                .put(message)
                .flip();
        out.write(frame.array(), 0, frame.limit());
        out.flush();

        byte[] bytes = new byte[in.readInt()];
        in.readFully(bytes);
        ByteBufferAccessor reader = new ByteBufferAccessor(ByteBuffer.wrap(bytes));
        ResponseHeaderData responseHeader = new ResponseHeaderData(reader, api.responseHeaderVersion(version));
        if (responseHeader.correlationId() != id) {
            throw new IOException("response " + responseHeader.correlationId() + " to request " + id);
        }
        response.read(reader, version);
        return response;
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
