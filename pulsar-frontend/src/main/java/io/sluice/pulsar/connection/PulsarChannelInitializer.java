package io.sluice.pulsar.connection;

import io.netty.channel.ChannelInitializer;
import io.netty.channel.socket.SocketChannel;
import io.sluice.pulsar.codec.FrameDecoder;
import io.sluice.relay.ProxyServices;
import io.sluice.relay.ProxyStats;
import io.sluice.relay.tls.TlsHandshakeWatch;

/**
 * Assembles the pipeline of an accepted client connection:
 * <pre>
 * [SslHandler -> TlsHandshakeWatch, with --tls-cert] -> FrameDecoder
 *   -> HandshakeTimeout (until the broker's CONNECTED) -> ClientHandler
 * </pre>
 * The handshake timeout starts when the connection is accepted, so it bounds the TLS handshake
 * too. The upstream connection's pipeline is assembled by {@link PulsarConnection} when the
 * client's CONNECT arrives.
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
        if (settings.clientTls() != null) {
            ProxyStats stats = services.stats();
            ch.pipeline().addLast("tls", settings.clientTls().newServerHandler(ch.alloc()));
            ch.pipeline()
                    .addLast(
                            "tls-handshake",
                            new TlsHandshakeWatch("Pulsar", () -> stats.protocolError(TlsHandshakeWatch.REASON)));
        }
        ch.pipeline().addLast("frames", new FrameDecoder());
        ch.pipeline().addLast("handshake-timeout", new HandshakeTimeout(settings.handshakeTimeout(), services.stats()));
        ch.pipeline().addLast("client", new ClientHandler(settings, services));
    }
}
