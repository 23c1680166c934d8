package io.sluice.pulsar.connection;

import io.netty.channel.socket.SocketChannel;
import io.sluice.pulsar.lookup.BrokerAllowList;
import io.sluice.pulsar.lookup.BrokerAllowList.BrokerAddress;
import io.sluice.pulsar.lookup.LookupMode;
import io.sluice.relay.tls.ReloadingSslContext;

import java.time.Duration;
import java.util.Objects;

/**
 * What the Pulsar front end needs to know to serve a client connection.
 *
 * @param upstream              the broker a client reaches when it does not name one
 * @param allowedBrokers        brokers a client may name in {@code CONNECT.proxy_to_broker_url}
 * @param lookupMode            whether lookup answers are rewritten to come back through Sluice
 * @param connectTimeoutMillis  how long to wait for the upstream TCP connection
 * @param upstreamChannelType   the socket channel class matching the event loops' transport
 * @param throttleReceiptWindow how long a client has to answer a ThrottleProducer notice with its
 *                              receipt before the proxy holds that producer's sends itself
 * @param handshakeTimeout      how long a client connection may take from accept to the broker's
 *                              CONNECTED before it is closed (see
 *                              {@link io.sluice.relay.connection.HandshakeDeadline}), TLS
 *                              handshakes with the client and the broker included
 * @param clientTls             the TLS clients must speak, or null for plaintext
 * @param upstreamTls           the TLS Sluice speaks to every broker, or null for plaintext
 * @param roleClaim             the token claim that names a client's role ({@code --pulsar-role-claim})
 */
public record PulsarSettings(
        BrokerAddress upstream,
        BrokerAllowList allowedBrokers,
        LookupMode lookupMode,
        int connectTimeoutMillis,
        Class<? extends SocketChannel> upstreamChannelType,
        Duration throttleReceiptWindow,
        Duration handshakeTimeout,
        ReloadingSslContext clientTls,
        ReloadingSslContext upstreamTls,
        String roleClaim) {

    /** The receipt window of a throttle notice (docs/PROTOCOL-EXTENSION.md), as in the PIP-385 draft. */
    public static final Duration DEFAULT_THROTTLE_RECEIPT_WINDOW = Duration.ofMillis(100);

    /**
     * The bound the broker and the Java client put on the handshake themselves (both close a
     * connection still without CONNECTED at their first keep-alive check, after 30 s by default).
     * Through Sluice the handshake also takes in the upstream connect (up to 10 s) and whatever
     * authentication needs (an OAuth2 token fetched by the client, a JWKS fetched by the broker, SASL
     * round trips), so less would cut handshakes that would have succeeded without Sluice.
     */
    public static final Duration DEFAULT_HANDSHAKE_TIMEOUT = Duration.ofSeconds(30);

    public PulsarSettings {
        Objects.requireNonNull(upstream, "upstream");
        Objects.requireNonNull(allowedBrokers, "allowedBrokers");
        Objects.requireNonNull(lookupMode, "lookupMode");
        Objects.requireNonNull(upstreamChannelType, "upstreamChannelType");
        Objects.requireNonNull(throttleReceiptWindow, "throttleReceiptWindow");
        Objects.requireNonNull(handshakeTimeout, "handshakeTimeout");
        if (connectTimeoutMillis <= 0) {
            throw new IllegalArgumentException("connectTimeoutMillis must be positive");
        }
        if (throttleReceiptWindow.isNegative() || throttleReceiptWindow.isZero()) {
            throw new IllegalArgumentException("throttleReceiptWindow must be positive");
        }
        if (handshakeTimeout.isNegative() || handshakeTimeout.isZero()) {
            throw new IllegalArgumentException("handshakeTimeout must be positive");
        }
    }

    /** Plaintext settings on both sides. */
    public PulsarSettings(
            BrokerAddress upstream,
            BrokerAllowList allowedBrokers,
            LookupMode lookupMode,
            int connectTimeoutMillis,
            Class<? extends SocketChannel> upstreamChannelType,
            Duration throttleReceiptWindow,
            Duration handshakeTimeout) {
        this(
                upstream,
                allowedBrokers,
                lookupMode,
                connectTimeoutMillis,
                upstreamChannelType,
                throttleReceiptWindow,
                handshakeTimeout,
                null,
                null,
                ConnectRole.DEFAULT_CLAIM);
    }

    /** Plaintext settings with the default throttle receipt window and handshake timeout. */
    public PulsarSettings(
            BrokerAddress upstream,
            BrokerAllowList allowedBrokers,
            LookupMode lookupMode,
            int connectTimeoutMillis,
            Class<? extends SocketChannel> upstreamChannelType) {
        this(
                upstream,
                allowedBrokers,
                lookupMode,
                connectTimeoutMillis,
                upstreamChannelType,
                DEFAULT_THROTTLE_RECEIPT_WINDOW,
                DEFAULT_HANDSHAKE_TIMEOUT);
    }
}
