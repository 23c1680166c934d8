package io.sluice.relay;

import io.netty.channel.Channel;
import io.netty.util.AttributeKey;

import java.net.SocketAddress;

/**
 * The address of a client connection's client: the source a PROXY protocol header named, which
 * the handler that read it ({@code io.sluice.relay.proxyprotocol}) puts on the channel before it
 * lets the connection open ({@link #KEY}), else the socket's peer. What the connection rate, the
 * log lines and the throttle records name the client by.
 */
public final class ClientAddress {

    /** Where a handler before framing puts the client's address it learnt. */
    public static final AttributeKey<SocketAddress> KEY = AttributeKey.valueOf("sluice.clientAddress");

    private ClientAddress() {}

    /** {@code channel}'s client: the address {@link #KEY} holds, else the socket's peer. */
    public static SocketAddress of(Channel channel) {
        SocketAddress announced = channel.attr(KEY).get();
        return announced != null ? announced : channel.remoteAddress();
    }
}
