package io.sluice.kafka.routing;

import io.sluice.kafka.codec.HandledApi;
import io.sluice.relay.tls.TlsProvider;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.message.ApiVersionsRequestData;
import org.apache.kafka.common.message.ApiVersionsResponseData;
import org.apache.kafka.common.message.ApiVersionsResponseData.ApiVersion;
import org.apache.kafka.common.message.MetadataRequestData;
import org.apache.kafka.common.message.MetadataRequestData.MetadataRequestTopic;
import org.apache.kafka.common.message.MetadataResponseData;
import org.apache.kafka.common.message.MetadataResponseData.MetadataResponseBroker;
import org.apache.kafka.common.message.MetadataResponseData.MetadataResponseTopic;
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
import org.apache.kafka.common.requests.RequestUtils;

import javax.net.SocketFactory;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSocket;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.IntFunction;

/**
 * Sluice's own Metadata requests to one bootstrap server: for the brokers and no topics, so that
 * a Sluice that just started knows every node (and opens its port) before the first client asks;
 * and for the names of topic ids no response through Sluice named ({@link TopicIdLookup}). Blocking: for a thread of its own, never an event loop. On a listener
 * that requires SASL Sluice logs in first ({@link LookupLogin}); without a login such a broker
 * closes the connection, and Sluice learns the nodes from the clients' own metadata instead.
 */
public final class MetadataClient {

    /** The first Metadata version that takes topic ids (KIP-516). */
    private static final short TOPICS_BY_ID = 12;
    /** Largest response Sluice reads: a cluster's every topic, for a broker too old to answer by id. */
    private static final int MAX_RESPONSE_BYTES = 64 << 20;

    /** The client id brokers see in their request logs. */
    static final String CLIENT_ID = "sluice";

    /** A broker the cluster lists, with its own advertised address. */
    public record Node(int nodeId, String host, int port) {}

    private MetadataClient() {}

    /**
     * The brokers {@code server} lists: negotiates the Metadata version with ApiVersions v0 (which
     * every broker answers), then asks for no topics.
     *
     * @throws IOException when the server cannot be reached, closes the connection, answers with
     *     an error or with something unreadable
     */
    public static List<Node> brokers(BrokerEndpoint server, Duration timeout) throws IOException {
        return brokers(server, timeout, SocketFactory.getDefault(), null);
    }

    /**
     * The brokers {@code server} lists, over a socket from {@code sockets}: an
     * {@code SSLSocketFactory} for a TLS listener, whose certificate must then name the host of
     * {@code server} (hostname verification as HTTPS does it), and which presents Sluice's upstream
     * client certificate when one is configured. With a {@code login}, Sluice authenticates with
     * SASL first, as a listener that requires it wants; {@code null} for none.
     *
     * @throws IOException as {@link #brokers(BrokerEndpoint, Duration)}, and when the TLS handshake fails
     */
    public static List<Node> brokers(BrokerEndpoint server, Duration timeout, SocketFactory sockets, LookupLogin login)
            throws IOException {
        MetadataResponseData response =
                metadata(server, timeout, sockets, login, version -> new MetadataRequestData().setTopics(List.of()));
        List<Node> nodes = new ArrayList<>();
        for (MetadataResponseBroker broker : response.brokers()) {
            nodes.add(new Node(broker.nodeId(), broker.host(), broker.port()));
        }
        return nodes;
    }

    /**
     * The names of the topics {@code ids} that {@code server} knows, and of any other topic its
     * answer names: asks for those ids (Metadata v12+), or for every topic from a broker too old to
     * take ids. An id the cluster does not know is left out.
     *
     * @throws IOException as {@link #brokers(BrokerEndpoint, Duration, SocketFactory, LookupLogin)}
     */
    public static Map<Uuid, String> topicNames(
            BrokerEndpoint server, Duration timeout, SocketFactory sockets, LookupLogin login, Collection<Uuid> ids)
            throws IOException {
        MetadataResponseData response = metadata(server, timeout, sockets, login, version -> {
            if (version < TOPICS_BY_ID) {
                return new MetadataRequestData().setTopics(null);
            }
            List<MetadataRequestTopic> topics = new ArrayList<>();
            for (Uuid id : ids) {
                topics.add(new MetadataRequestTopic().setTopicId(id).setName(null));
            }
            return new MetadataRequestData().setTopics(topics);
        });
        Map<Uuid, String> names = new HashMap<>();
        for (MetadataResponseTopic topic : response.topics()) {
            if (topic.errorCode() == Errors.NONE.code() && topic.name() != null) {
                names.put(topic.topicId(), topic.name());
            }
        }
        return names;
    }

    /**
     * One Metadata request to {@code server}, made by {@code request} for the version negotiated
     * with ApiVersions v0 (which every broker answers), and its response.
     */
    private static MetadataResponseData metadata(
            BrokerEndpoint server,
            Duration timeout,
            SocketFactory sockets,
            LookupLogin login,
            IntFunction<MetadataRequestData> request)
            throws IOException {
        int millis = (int) Math.min(Integer.MAX_VALUE, Math.max(1, timeout.toMillis()));
        try (Socket socket = sockets.createSocket()) {
            if (socket instanceof SSLSocket tls) {
                SSLParameters parameters = tls.getSSLParameters();
                parameters.setEndpointIdentificationAlgorithm("HTTPS");
                parameters.setProtocols(TlsProvider.PROTOCOLS);
                tls.setSSLParameters(parameters);
            }
            socket.connect(new InetSocketAddress(server.host(), server.port()), millis);
            socket.setSoTimeout(millis);
            DataInputStream in = new DataInputStream(socket.getInputStream());
            OutputStream out = socket.getOutputStream();

            send(out, new ApiVersionsRequestData(), (short) 0, 1);
            ApiVersionsResponseData versions = receive(in, new ApiVersionsResponseData(), (short) 0, 1);
            if (versions.errorCode() != Errors.NONE.code()) {
                throw new IOException(server + " refused ApiVersions: " + Errors.forCode(versions.errorCode()));
            }
            ApiVersion metadata = versions.apiKeys().find(ApiKeys.METADATA.id);
            if (metadata == null) {
                throw new IOException(server + " does not serve Metadata");
            }
            // v0 reads an empty topic list as every topic; from v1 it means none.
            short version = (short) Math.min(metadata.maxVersion(), HandledApi.METADATA.maxVersion());
            if (version < Math.max(1, metadata.minVersion())) {
                throw new IOException(server + " serves Metadata v" + metadata.minVersion() + "-v"
                        + metadata.maxVersion() + " only, none Sluice asks with");
            }
            int correlationId = 2;
            if (login != null) {
                correlationId = logIn(server, login, in, out, correlationId);
            }
            send(out, request.apply(version), version, correlationId);
            return receive(in, new MetadataResponseData(), version, correlationId);
        } catch (RuntimeException e) {
            // kafka-clients' readers signal unreadable input with assorted unchecked exceptions.
            throw new IOException(server + " answered something unreadable: " + e, e);
        }
    }

    /**
     * SaslHandshake v1 for the login's mechanism, then SaslAuthenticate v2 for each token of the
     * exchange; returns the next correlation id.
     */
    private static int logIn(
            BrokerEndpoint server, LookupLogin login, DataInputStream in, OutputStream out, int firstCorrelationId)
            throws IOException {
        int[] correlationId = {firstCorrelationId};
        send(out, new SaslHandshakeRequestData().setMechanism(login.mechanism()), (short) 1, correlationId[0]);
        SaslHandshakeResponseData handshake =
                receive(in, new SaslHandshakeResponseData(), (short) 1, correlationId[0]++);
        if (handshake.errorCode() != Errors.NONE.code()) {
            throw new IOException(server + " does not take SASL " + login.mechanism() + " (it takes "
                    + handshake.mechanisms() + "): " + Errors.forCode(handshake.errorCode()));
        }
        login.authenticate(server.host(), token -> {
            send(out, new SaslAuthenticateRequestData().setAuthBytes(token), (short) 2, correlationId[0]);
            SaslAuthenticateResponseData answer =
                    receive(in, new SaslAuthenticateResponseData(), (short) 2, correlationId[0]++);
            if (answer.errorCode() != Errors.NONE.code()) {
                throw new IOException(server + " refused the login " + login + ": " + Errors.forCode(answer.errorCode())
                        + " " + answer.errorMessage());
            }
            return answer.authBytes();
        });
        return correlationId[0];
    }

    private static void send(OutputStream out, ApiMessage body, short version, int correlationId) throws IOException {
        ApiKeys key = ApiKeys.forId(body.apiKey());
        RequestHeaderData header = new RequestHeaderData()
                .setRequestApiKey(key.id)
                .setRequestApiVersion(version)
                .setCorrelationId(correlationId)
                .setClientId(CLIENT_ID);
        ByteBuffer message = RequestUtils.serialize(header, key.requestHeaderVersion(version), body, version);
        ByteBuffer frame = ByteBuffer.allocate(4 + message.remaining())
                .putInt(message.remaining())
                .put(message)
                .flip();
        out.write(frame.array(), 0, frame.limit());
        out.flush();
    }

    private static <M extends ApiMessage> M receive(DataInputStream in, M body, short version, int correlationId)
            throws IOException {
        int size = in.readInt();
        if (size < 4 || size > MAX_RESPONSE_BYTES) {
            throw new IOException("response of " + size + " bytes to " + ApiKeys.forId(body.apiKey()).name);
        }
        byte[] bytes = new byte[size];
        in.readFully(bytes);
        ByteBufferAccessor reader = new ByteBufferAccessor(ByteBuffer.wrap(bytes));
        ResponseHeaderData header =
                new ResponseHeaderData(reader, ApiKeys.forId(body.apiKey()).responseHeaderVersion(version));
        if (header.correlationId() != correlationId) {
            throw new IOException("response " + header.correlationId() + " where " + correlationId + " was expected");
        }
        body.read(reader, version);
        return body;
    }
}
