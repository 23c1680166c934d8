package io.sluice.pulsar.proxy;

import io.netty.channel.socket.SocketChannel;
import io.sluice.pulsar.proxy.BrokerAllowList.BrokerAddress;

import java.util.Objects;

/**
 * What the proxy needs to know to serve a client connection.
 *
 * @param upstream            the broker a client reaches when it does not name one
 * @param allowedBrokers      brokers a client may name in {@code CONNECT.proxy_to_broker_url}
 * @param lookupMode          whether lookup answers are rewritten to come back through Sluice
 * @param connectTimeoutMillis how long to wait for the upstream TCP connection
 * @param upstreamChannelType the socket channel class matching the event loops' transport
 */
public record ProxySettings(BrokerAddress upstream,
                            BrokerAllowList allowedBrokers,
                            LookupMode lookupMode,
                            int connectTimeoutMillis,
                            Class<? extends SocketChannel> upstreamChannelType) {

    public ProxySettings {
        Objects.requireNonNull(upstream, "upstream");
        Objects.requireNonNull(allowedBrokers, "allowedBrokers");
        Objects.requireNonNull(lookupMode, "lookupMode");
        Objects.requireNonNull(upstreamChannelType, "upstreamChannelType");
        if (connectTimeoutMillis <= 0) {
            throw new IllegalArgumentException("connectTimeoutMillis must be positive");
        }
    }
}
