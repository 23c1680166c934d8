package io.sluice.kafka.connection;

import io.netty.channel.ChannelInitializer;
import io.netty.channel.WriteBufferWaterMark;
import io.netty.channel.socket.SocketChannel;
import io.sluice.kafka.codec.KafkaFrameDecoder;
import io.sluice.kafka.routing.BrokerEndpoint;
import io.sluice.relay.ProxyServices;
import io.sluice.relay.tls.ReloadingSslContext;
import io.sluice.relay.tls.TlsHandshakeWatch;

/**
 * Assembles the pipelines of a Kafka connection, for one of Sluice's Kafka ports. An accepted
 * client connection:
 * <pre>
 * [SslHandler -> TlsHandshakeWatch, with --tls-cert] -> KafkaFrameDecoder (requests)
 *     -> HandshakeTimeout (until the broker's first response, so the TLS handshake counts) -> ClientHandler
 * </pre>
 * and the upstream connection {@link KafkaConnection} opens for it ({@link #initUpstream}):
 * <pre>
 * [SslHandler, with --kafka-upstream-tls] -> KafkaFrameDecoder (responses) -> BrokerHandler
 * </pre>
 * Requests written before the upstream TLS handshake completes wait in the {@code SslHandler}.
 */
public final class KafkaChannelInitializer extends ChannelInitializer<SocketChannel> {

    /**
     * The write buffer marks for both channels of a connection: requests and fetch responses of a
     * MiB and more are common, and a larger high mark avoids toggling reads on every one.
     */
    public static final WriteBufferWaterMark WATER_MARK = new WriteBufferWaterMark(1 << 20, 8 << 20);

    private final KafkaSettings settings;
    private final ProxyServices services;
    private final UpstreamRoute route;

    /** @param route where this port's connections go */
    public KafkaChannelInitializer(KafkaSettings settings, ProxyServices services, UpstreamRoute route) {
        this.settings = settings;
        this.services = services;
        this.route = route;
    }

    @Override
    protected void initChannel(SocketChannel ch) {
        if (settings.clientTls() != null) {
            ch.pipeline().addLast("tls", settings.clientTls().newServerHandler(ch.alloc()));
            ch.pipeline()
                    .addLast(
                            "tls-handshake",
                            new TlsHandshakeWatch(
                                    "Kafka", () -> services.stats().protocolError(TlsHandshakeWatch.REASON)));
        }
        ch.pipeline().addLast("frames", new KafkaFrameDecoder(settings.maxRequestSize()));
        ch.pipeline().addLast("handshake-timeout", new HandshakeTimeout(settings.handshakeTimeout(), services.stats()));
        ch.pipeline().addLast("client", new ClientHandler(settings, services, route));
    }

    /** @param tls the upstream TLS, verifying that {@code target}'s certificate names its host; null for plaintext */
    static void initUpstream(
            SocketChannel ch,
            KafkaConnection connection,
            ReloadingSslContext tls,
            BrokerEndpoint target,
            long handshakeTimeoutMillis) {
        if (tls != null) {
            ch.pipeline()
                    .addLast(
                            "tls",
                            tls.newClientHandler(ch.alloc(), target.host(), target.port(), handshakeTimeoutMillis));
        }
        ch.pipeline().addLast("frames", new KafkaFrameDecoder(KafkaConnection.MAX_RESPONSE_SIZE));
        ch.pipeline().addLast("broker", new BrokerHandler(connection));
    }
}
