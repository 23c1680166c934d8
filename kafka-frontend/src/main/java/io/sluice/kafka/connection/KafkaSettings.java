package io.sluice.kafka.connection;

import io.netty.channel.socket.SocketChannel;
import io.sluice.kafka.routing.AdvertisedNodes;
import io.sluice.kafka.routing.ResponseRewriter;
import io.sluice.kafka.routing.TopicIdLookup;
import io.sluice.kafka.scopes.SslPrincipalMapping;
import io.sluice.relay.tls.ReloadingSslContext;

import java.time.Duration;
import java.util.Objects;

/**
 * What the Kafka front end needs to know to serve a client connection.
 *
 * @param advertisedNodes      Sluice's addresses for the brokers in rewrite mode; null in
 *                             passthrough mode, where broker addresses reach clients unchanged
 * @param topicIdLookup        topic names by id and Sluice's own lookup of those it has not
 *                             learnt, shared by the front end's connections
 * @param connectTimeoutMillis how long to wait for the upstream TCP connection
 * @param upstreamChannelType  the socket channel class matching the event loops' transport
 * @param handshakeTimeout     how long a client connection may take from accept to the broker's
 *                             first response before it is closed (see
 *                             {@link io.sluice.relay.connection.HandshakeDeadline}), the TLS
 *                             handshake with the client included
 * @param maxRequestSize       the largest request frame a client may send: the brokers'
 *                             {@code socket.request.max.bytes}
 * @param clientTls            the TLS clients speak to Sluice's Kafka ports, or null for plaintext
 * @param upstreamTls          the TLS Sluice speaks to the brokers, or null for plaintext
 * @param maxTopicsPerConnection topics one connection's gates track at most
 * @param principalMapping     how a client certificate's subject names the connection's principal
 *                             ({@code --kafka-ssl-principal-mapping-rules})
 */
public record KafkaSettings(
        AdvertisedNodes advertisedNodes,
        TopicIdLookup topicIdLookup,
        int connectTimeoutMillis,
        Class<? extends SocketChannel> upstreamChannelType,
        Duration handshakeTimeout,
        int maxRequestSize,
        ReloadingSslContext clientTls,
        ReloadingSslContext upstreamTls,
        int maxTopicsPerConnection,
        SslPrincipalMapping principalMapping) {

    /** Topics one connection tracks at most unless {@code --max-topics-per-connection} says otherwise. */
    public static final int DEFAULT_MAX_TOPICS_PER_CONNECTION = 10_000;

    /** A broker's default {@code socket.request.max.bytes} (100 MiB), the largest request it reads. */
    public static final int DEFAULT_MAX_REQUEST_SIZE = 100 * 1024 * 1024;

    /** The broker and the Java client allow a connection this long before its first answer, as for Pulsar. */
    public static final Duration DEFAULT_HANDSHAKE_TIMEOUT = Duration.ofSeconds(30);

    public KafkaSettings {
        Objects.requireNonNull(topicIdLookup, "topicIdLookup");
        Objects.requireNonNull(upstreamChannelType, "upstreamChannelType");
        Objects.requireNonNull(handshakeTimeout, "handshakeTimeout");
        Objects.requireNonNull(principalMapping, "principalMapping");
        if (connectTimeoutMillis <= 0) {
            throw new IllegalArgumentException("connectTimeoutMillis must be positive");
        }
        if (handshakeTimeout.isNegative() || handshakeTimeout.isZero()) {
            throw new IllegalArgumentException("handshakeTimeout must be positive");
        }
        if (maxRequestSize <= 0) {
            throw new IllegalArgumentException("maxRequestSize must be positive");
        }
        if (maxTopicsPerConnection <= 0) {
            throw new IllegalArgumentException("maxTopicsPerConnection must be positive");
        }
    }

    /** Plaintext settings with the default handshake timeout and the brokers' default largest request. */
    public KafkaSettings(
            AdvertisedNodes advertisedNodes,
            TopicIdLookup topicIdLookup,
            int connectTimeoutMillis,
            Class<? extends SocketChannel> upstreamChannelType) {
        this(
                advertisedNodes,
                topicIdLookup,
                connectTimeoutMillis,
                upstreamChannelType,
                DEFAULT_HANDSHAKE_TIMEOUT,
                DEFAULT_MAX_REQUEST_SIZE,
                null,
                null,
                DEFAULT_MAX_TOPICS_PER_CONNECTION,
                SslPrincipalMapping.byDefault());
    }

    /** A rewriter for one connection's responses, in this front end's routing mode. */
    ResponseRewriter newRewriter() {
        return advertisedNodes == null
                ? ResponseRewriter.passingThrough(topicIdLookup.topicIds())
                : ResponseRewriter.rewriting(advertisedNodes, topicIdLookup.topicIds());
    }
}
