package io.sluice.relay.connection;

import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelPromise;
import io.sluice.testing.EmbeddedSocketChannel;

import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.SocketAddress;

/**
 * An in-memory upstream channel for a {@code Bootstrap} whose connect is refused at
 * {@link #REFUSED_PORT}, as a socket's is where nothing listens, and succeeds at once elsewhere.
 */
public class RefusingSocketChannel extends EmbeddedSocketChannel {

    /** Where nothing listens. */
    public static final int REFUSED_PORT = 1;

    @Override
    public ChannelFuture connect(SocketAddress remote, ChannelPromise promise) {
        if (remote instanceof InetSocketAddress address && address.getPort() == REFUSED_PORT) {
            return promise.setFailure(new ConnectException("Connection refused: " + address));
        }
        return super.connect(remote, promise);
    }
}
