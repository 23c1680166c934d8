package io.sluice.pulsar.connection;

import io.netty.channel.ChannelInitializer;
import io.netty.channel.WriteBufferWaterMark;
import io.netty.channel.socket.SocketChannel;
import io.sluice.pulsar.codec.PulsarFrameRule;
import io.sluice.relay.ProxyServices;
import io.sluice.relay.ReadGate;
import io.sluice.relay.connection.ClientPipeline;
import io.sluice.relay.connection.ConnectionSpec;
import io.sluice.relay.connection.ConnectionSpec.Framing;
import io.sluice.relay.connection.ConnectionSpec.Handshake;
import io.sluice.relay.connection.UpstreamDialer;

/**
 * Assembles the pipeline of an accepted Pulsar client connection, the relay's
 * ({@link ClientPipeline}) with Pulsar's frames:
 * <pre>
 * [SslHandler -> TlsHandshakeWatch, with --tls-cert] -> FrameDecoder (PulsarFrameRule)
 *   -> HandshakeDeadline (until the broker's CONNECTED) -> ClientHandler -> PulsarConnection
 * </pre>
 * The handshake deadline starts when the connection is accepted, so it bounds the TLS handshake
 * too. The upstream connection's pipeline is assembled when the client's CONNECT opens it:
 * <pre>
 * [SslHandler, with --upstream-tls] -> FrameDecoder (PulsarFrameRule) -> UpstreamHandler -> PulsarConnection
 * </pre>
 * A connection stops decoding the client's frames, not only reading its socket, while it is over
 * its connection limits; frames sent before the upstream is up wait for it. Until the broker's
 * CONNECTED a client's frames may be at most 64 KiB, after it as large as the broker takes.
 */
public final class PulsarChannelInitializer extends ChannelInitializer<SocketChannel> {

    private final ClientPipeline pipeline;

    public PulsarChannelInitializer(PulsarSettings settings, ProxyServices services) {
        ConnectionSpec spec = new ConnectionSpec(
                "Pulsar",
                "connection",
                services,
                settings.clientTls(),
                new Framing(PulsarFrameRule.RULE, PulsarFrameRule.MAX_FRAME_BEFORE_CONNECTED),
                new Framing(PulsarFrameRule.RULE, PulsarFrameRule.DEFAULT_MAX_FRAME_SIZE),
                new UpstreamDialer(
                        settings.upstreamChannelType(),
                        settings.connectTimeoutMillis(),
                        WriteBufferWaterMark.DEFAULT,
                        settings.upstreamTls()),
                new Handshake(
                        settings.handshakeTimeout(),
                        "Pulsar handshake",
                        "the client has not completed the TLS handshake",
                        "no CONNECT from the client",
                        "the broker has not answered CONNECT"),
                ReadGate.CONNECTION_LIMIT);
        this.pipeline = new ClientPipeline(spec, relay -> new PulsarConnection(relay, settings, services));
    }

    @Override
    protected void initChannel(SocketChannel ch) {
        pipeline.assemble(ch);
    }
}
