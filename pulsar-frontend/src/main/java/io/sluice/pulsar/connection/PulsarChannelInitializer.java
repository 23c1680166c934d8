package io.sluice.pulsar.connection;

import io.sluice.relay.ProxyServices;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.socket.SocketChannel;
import io.sluice.pulsar.codec.FrameDecoder;

/**
 * Assembles the pipeline of an accepted client connection:
 * <pre>
 * FrameDecoder -> HandshakeTimeout (until the broker's CONNECTED) -> ClientHandler
 * </pre>
 * The upstream connection's pipeline is assembled by {@link PulsarConnection} when the client's
 * CONNECT arrives.
 */
public final class PulsarChannelInitializer extends ChannelInitializer<SocketChannel> {

    private final PulsarSettings settings;
    private final ProxyServices services;

    public PulsarChannelInitializer(PulsarSettings settings, ProxyServices services) {
        this.settings = settings;
        this.services = services;
    }

    @Override
    protected void initChannel(SocketChannel ch) {
        ch.pipeline().addLast("frames", new FrameDecoder());
        ch.pipeline().addLast("handshake-timeout", new HandshakeTimeout(settings.handshakeTimeout(), services.stats()));
        ch.pipeline().addLast("client", new ClientHandler(settings, services));
    }
}
