package io.sluice.server.it.kafka;

import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.compress.Compression;
import org.apache.kafka.common.message.ApiVersionsRequestData;
import org.apache.kafka.common.message.ApiVersionsResponseData;
import org.apache.kafka.common.message.MetadataRequestData;
import org.apache.kafka.common.message.MetadataResponseData;
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

import javax.crypto.Mac;
import javax.crypto.SecretKeyFactory;
import javax.crypto.spec.PBEKeySpec;
import javax.crypto.spec.SecretKeySpec;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * Kafka requests written by hand over a plain socket, for what a stock client would not do on its
 * own: a Produce v13 naming a topic by an id the Sluice it goes through never saw; a stream of
 * unanswered produce requests, each under another client id.
 */
final class RawKafkaClient implements AutoCloseable {

    private final Socket socket;
    private final OutputStream out;
    private final DataInputStream in;
    private static final String CLIENT_ID = "raw-it";
    private static final short METADATA_VERSION = 12;

    private int correlationId;
    /** After a SaslHandshake v0, SASL tokens go raw (size and token), not in SaslAuthenticate requests. */
    private boolean rawTokens;

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

    /**
     * One Produce v11 request with {@code acks=0} (no response comes) holding {@code batches}, each
     * for partition 0 of the topic it is keyed by.
     */
    void produceUnanswered(Map<String, MemoryRecords> batches) throws IOException {
        ProduceRequestData request = new ProduceRequestData().setAcks((short) 0).setTimeoutMs(30_000);
        batches.forEach((topic, batch) -> {
            ProduceRequestData.TopicProduceData data = new ProduceRequestData.TopicProduceData().setName(topic);
            data.partitionData()
                    .add(new ProduceRequestData.PartitionProduceData()
                            .setIndex(0)
                            .setRecords(batch));
            request.topicData().add(data);
        });
        write(ApiKeys.PRODUCE, (short) 11, request);
    }

    /**
     * One Produce v11 request (acks=1) of one record to partition 0 of each of {@code topics}; returns
     * how many partitions the response answers.
     */
    int produceToEach(List<String> topics) throws IOException {
        ProduceRequestData request = new ProduceRequestData().setAcks((short) 1).setTimeoutMs(30_000);
        for (String topic : topics) {
            ProduceRequestData.TopicProduceData data = new ProduceRequestData.TopicProduceData().setName(topic);
            data.partitionData()
                    .add(new ProduceRequestData.PartitionProduceData()
                            .setIndex(0)
                            .setRecords(batch(1)));
            request.topicData().add(data);
        }
        ProduceResponseData response = exchange(ApiKeys.PRODUCE, (short) 11, request, new ProduceResponseData());
        return response.responses().stream()
                .mapToInt(t -> t.partitionResponses().size())
                .sum();
    }

    /** Sends ApiVersions and reads its answer, as every client does first: the broker's answer ends Sluice's handshake deadline. */
    void apiVersions() throws IOException {
        exchange(ApiKeys.API_VERSIONS, (short) 0, new ApiVersionsRequestData(), new ApiVersionsResponseData());
    }

    /**
     * Produces one record to partition {@code partition} of {@code topic} (Produce v11, acks=1)
     * under client id {@code clientId}; returns the partition's error code.
     */
    short produce(String clientId, String topic, int partition) throws IOException {
        return produce(
                clientId, (short) 11, new ProduceRequestData.TopicProduceData().setName(topic), partition, batch(1));
    }

    /**
     * Writes a Produce v11 of one record to partition {@code partition} of {@code topic} with acks=0,
     * under client id {@code clientId}: no answer comes. Buffered until {@link #flush}.
     */
    void produceUnacknowledged(String clientId, String topic, int partition) throws IOException {
        ProduceRequestData request = new ProduceRequestData().setAcks((short) 0).setTimeoutMs(30_000);
        ProduceRequestData.TopicProduceData data = new ProduceRequestData.TopicProduceData().setName(topic);
        data.partitionData()
                .add(new ProduceRequestData.PartitionProduceData()
                        .setIndex(partition)
                        .setRecords(batch(1)));
        request.topicData().add(data);
        write(clientId, ApiKeys.PRODUCE, (short) 11, request);
    }

    void flush() throws IOException {
        out.flush();
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
        loginPlain(user, password, (short) 1);
    }

    /**
     * Logs in with SASL/PLAIN after a SaslHandshake of {@code handshakeVersion}: 1 sends the token
     * in a SaslAuthenticate request, 0 raw (its size, then the token), as clients before Kafka 1.0 did.
     */
    void loginPlain(String user, String password, short handshakeVersion) throws IOException {
        handshake("PLAIN", handshakeVersion);
        authenticate(("\0" + user + "\0" + password).getBytes(StandardCharsets.UTF_8));
    }

    private void handshake(String mechanism, short version) throws IOException {
        SaslHandshakeResponseData handshake = exchange(
                ApiKeys.SASL_HANDSHAKE,
                version,
                new SaslHandshakeRequestData().setMechanism(mechanism),
                new SaslHandshakeResponseData());
        if (handshake.errorCode() != 0) {
            throw new IOException("SaslHandshake: " + Errors.forCode(handshake.errorCode()));
        }
        rawTokens = version == 0;
    }

    /**
     * Logs in with SASL/SCRAM-SHA-256, writing {@code firstMessagePrefix} (such as the reserved
     * {@code m=} extension and its comma) before the user name of the client-first message, where
     * RFC 5802 allows it. The proof is computed as Kafka's broker computes its half: over the
     * client-first message without that prefix.
     */
    void loginScram(String user, String password, String firstMessagePrefix) throws IOException {
        loginScram(user, password, firstMessagePrefix, (short) 1);
    }

    /** As {@link #loginScram(String, String, String)}, after a SaslHandshake of {@code handshakeVersion} (0: raw tokens). */
    void loginScram(String user, String password, String firstMessagePrefix, short handshakeVersion)
            throws IOException {
        handshake("SCRAM-SHA-256", handshakeVersion);
        String bare = "n=" + user + ",r=" + UUID.randomUUID().toString().replace("-", "");
        String serverFirst = new String(
                authenticate(("n,," + firstMessagePrefix + bare).getBytes(StandardCharsets.UTF_8)),
                StandardCharsets.UTF_8);
        Map<String, String> fields = new HashMap<>();
        for (String field : serverFirst.split(",")) {
            fields.put(field.substring(0, 1), field.substring(2));
        }
        String withoutProof = "c=biws,r=" + fields.get("r");
        try {
            SecretKeyFactory pbkdf2 = SecretKeyFactory.getInstance("PBKDF2WithHmacSHA256");
            byte[] salted = pbkdf2.generateSecret(new PBEKeySpec(
                            password.toCharArray(),
                            Base64.getDecoder().decode(fields.get("s")),
                            Integer.parseInt(fields.get("i")),
                            256))
                    .getEncoded();
            byte[] clientKey = hmac(salted, "Client Key");
            byte[] storedKey = MessageDigest.getInstance("SHA-256").digest(clientKey);
            byte[] signature = hmac(storedKey, bare + "," + serverFirst + "," + withoutProof);
            byte[] proof = new byte[clientKey.length];
            for (int i = 0; i < proof.length; i++) {
                proof[i] = (byte) (clientKey[i] ^ signature[i]);
            }
            authenticate((withoutProof + ",p=" + Base64.getEncoder().encodeToString(proof))
                    .getBytes(StandardCharsets.UTF_8));
        } catch (GeneralSecurityException e) {
            throw new IOException(e);
        }
    }

    private static byte[] hmac(byte[] key, String message) throws GeneralSecurityException {
        Mac mac = Mac.getInstance("HmacSHA256");
        mac.init(new SecretKeySpec(key, "HmacSHA256"));
        return mac.doFinal(message.getBytes(StandardCharsets.UTF_8));
    }

    /**
     * One SASL round: the client's {@code token}, the broker's answer, which must carry no error;
     * raw after a SaslHandshake v0 (a broker refusing a raw token closes the connection).
     */
    private byte[] authenticate(byte[] token) throws IOException {
        if (rawTokens) {
            out.write(ByteBuffer.allocate(4 + token.length)
                    .putInt(token.length)
                    .put(token)
                    .array());
            out.flush();
            byte[] answer = new byte[in.readInt()];
            in.readFully(answer);
            return answer;
        }
        SaslAuthenticateResponseData answer = exchange(
                ApiKeys.SASL_AUTHENTICATE,
                (short) 2,
                new SaslAuthenticateRequestData().setAuthBytes(token),
                new SaslAuthenticateResponseData());
        if (answer.errorCode() != 0) {
            throw new IOException(
                    "SaslAuthenticate: " + Errors.forCode(answer.errorCode()) + " " + answer.errorMessage());
        }
        return answer.authBytes();
    }

    private short produce(short version, ProduceRequestData.TopicProduceData topic, int partition, MemoryRecords batch)
            throws IOException {
        return produce(CLIENT_ID, version, topic, partition, batch);
    }

    private short produce(
            String clientId,
            short version,
            ProduceRequestData.TopicProduceData topic,
            int partition,
            MemoryRecords batch)
            throws IOException {
        ProduceRequestData request = new ProduceRequestData().setAcks((short) 1).setTimeoutMs(30_000);
        topic.partitionData()
                .add(new ProduceRequestData.PartitionProduceData()
                        .setIndex(partition)
                        .setRecords(batch));
        request.topicData().add(topic);
        ProduceResponseData response = exchange(clientId, ApiKeys.PRODUCE, version, request, new ProduceResponseData());
        return response.responses()
                .iterator()
                .next()
                .partitionResponses()
                .get(0)
                .errorCode();
    }

    /** A Metadata v12 request for no topic (the brokers only) under {@code clientId}; returns the broker's answer. */
    MetadataResponseData metadata(String clientId) throws IOException {
        return metadata(clientId, List.of());
    }

    /**
     * A Metadata v12 request for {@code topics} (none: the brokers only; none created if missing)
     * under {@code clientId}; returns the broker's answer.
     */
    MetadataResponseData metadata(String clientId, List<String> topics) throws IOException {
        return exchange(
                clientId, ApiKeys.METADATA, METADATA_VERSION, metadataRequest(topics), new MetadataResponseData());
    }

    /** Writes {@code count} such Metadata requests for {@code topics} under {@code clientId} at once, without reading an answer. */
    void pipelineMetadata(String clientId, int count, List<String> topics) throws IOException {
        for (int i = 0; i < count; i++) {
            write(clientId, ApiKeys.METADATA, METADATA_VERSION, metadataRequest(topics));
        }
        out.flush();
    }

    private static MetadataRequestData metadataRequest(List<String> topics) {
        List<MetadataRequestData.MetadataRequestTopic> named = new ArrayList<>();
        for (String topic : topics) {
            named.add(new MetadataRequestData.MetadataRequestTopic().setName(topic));
        }
        return new MetadataRequestData().setTopics(named).setAllowAutoTopicCreation(false);
    }

    /** Reads the next answer, to a Metadata request {@link #pipelineMetadata} wrote. */
    MetadataResponseData readMetadata() throws IOException {
        byte[] bytes = new byte[in.readInt()];
        in.readFully(bytes);
        ByteBufferAccessor reader = new ByteBufferAccessor(ByteBuffer.wrap(bytes));
        new ResponseHeaderData(reader, ApiKeys.METADATA.responseHeaderVersion(METADATA_VERSION));
        MetadataResponseData response = new MetadataResponseData();
        response.read(reader, METADATA_VERSION);
        return response;
    }

    /** Writes {@code request} as {@code api} v{@code version} and reads its response into {@code response}. */
    private <T extends ApiMessage> T exchange(ApiKeys api, short version, ApiMessage request, T response)
            throws IOException {
        return exchange(CLIENT_ID, api, version, request, response);
    }

    /** As {@link #exchange(ApiKeys, short, ApiMessage, ApiMessage)}, under client id {@code clientId}. */
    private <T extends ApiMessage> T exchange(
            String clientId, ApiKeys api, short version, ApiMessage request, T response) throws IOException {
        int id = write(clientId, api, version, request);
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

    /** Writes {@code request} as {@code api} v{@code version} and flushes it; returns its correlation id. */
    private int write(ApiKeys api, short version, ApiMessage request) throws IOException {
        int id = write(CLIENT_ID, api, version, request);
        out.flush();
        return id;
    }

    /** Writes {@code request} as {@code api} v{@code version} under {@code clientId}, unflushed; returns its correlation id. */
    private int write(String clientId, ApiKeys api, short version, ApiMessage request) throws IOException {
        int id = ++correlationId;
        RequestHeaderData header = new RequestHeaderData()
                .setRequestApiKey(api.id)
                .setRequestApiVersion(version)
                .setCorrelationId(id)
                .setClientId(clientId);
        ByteBuffer message = RequestUtils.serialize(header, api.requestHeaderVersion(version), request, version);
        ByteBuffer frame = ByteBuffer.allocate(4 + message.remaining())
                .putInt(message.remaining())
                .put(message)
                .flip();
        out.write(frame.array(), 0, frame.limit());
        return id;
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
