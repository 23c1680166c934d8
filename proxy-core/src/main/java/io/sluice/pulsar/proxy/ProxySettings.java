package io.sluice.pulsar.proxy;

import io.netty.channel.socket.SocketChannel;
import io.sluice.pulsar.proxy.BrokerAllowList.BrokerAddress;

import java.time.Duration;
import java.util.Objects;

/**
 * What the proxy needs to know to serve a client connection.
 *
 * @param upstream              the broker a client reaches when it does not name one
 * @param allowedBrokers        brokers a client may name in {@code CONNECT.proxy_to_broker_url}
 * @param lookupMode            whether lookup answers are rewritten to come back through Sluice
 * @param connectTimeoutMillis  how long to wait for the upstream TCP connection
 * @param upstreamChannelType   the socket channel class matching the event loops' transport
 * @param throttleReceiptWindow how long a client has to answer a ThrottleProducer notice with its
 *                              receipt before the proxy holds that producer's sends itself
 */
public record ProxySettings(BrokerAddress upstream,
                            BrokerAllowList allowedBrokers,
                            LookupMode lookupMode,
                            int connectTimeoutMillis,
                            Class<? extends SocketChannel> upstreamChannelType,
                            Duration throttleReceiptWindow) {

    /** The receipt window of SPEC section 4, as in the PIP-385 draft. */
    public static final Duration DEFAULT_THROTTLE_RECEIPT_WINDOW = Duration.ofMillis(100);

    public ProxySettings {
        Objects.requireNonNull(upstream, "upstream");
        Objects.requireNonNull(allowedBrokers, "allowedBrokers");
        Objects.requireNonNull(lookupMode, "lookupMode");
        Objects.requireNonNull(upstreamChannelType, "upstreamChannelType");
        Objects.requireNonNull(throttleReceiptWindow, "throttleReceiptWindow");
        if (connectTimeoutMillis <= 0) {
            throw new IllegalArgumentException("connectTimeoutMillis must be positive");
        }
        if (throttleReceiptWindow.isNegative() || throttleReceiptWindow.isZero()) {
            throw new IllegalArgumentException("throttleReceiptWindow must be positive");
        }
    }

    /** Settings with the default throttle receipt window. */
    public ProxySettings(BrokerAddress upstream, BrokerAllowList allowedBrokers, LookupMode lookupMode,
                         int connectTimeoutMillis, Class<? extends SocketChannel> upstreamChannelType) {
        this(upstream, allowedBrokers, lookupMode, connectTimeoutMillis, upstreamChannelType,
                DEFAULT_THROTTLE_RECEIPT_WINDOW);
    }
}
