package io.sluice.kafka.connection;

import io.netty.channel.ChannelInitializer;
import io.netty.channel.WriteBufferWaterMark;
import io.netty.channel.socket.SocketChannel;
import io.sluice.relay.ProxyServices;
import io.sluice.relay.ReadGate;
import io.sluice.relay.connection.ClientPipeline;
import io.sluice.relay.connection.ConnectionSpec;
import io.sluice.relay.connection.ConnectionSpec.Framing;
import io.sluice.relay.connection.ConnectionSpec.Handshake;
import io.sluice.relay.connection.FrameRule;
import io.sluice.relay.connection.UpstreamDialer;

/**
 * Assembles the pipeline of an accepted Kafka client connection, for one of Sluice's Kafka ports:
 * the relay's ({@link ClientPipeline}) with Kafka's frames ({@link FrameRule#INT32_SIZE}):
 * <pre>
 * [SslHandler -> TlsHandshakeWatch, with --tls-cert] -> FrameDecoder (requests)
 *   -> HandshakeDeadline (until the broker's first response) -> ClientHandler -> KafkaConnection
 * </pre>
 * The handshake deadline starts when the connection is accepted, so it bounds the TLS handshake
 * too. The upstream connection's pipeline is assembled when the first request to forward opens it:
 * <pre>
 * [SslHandler, with --kafka-upstream-tls] -> FrameDecoder (responses) -> UpstreamHandler -> KafkaConnection
 * </pre>
 * A connection stops decoding the client's requests, not only reading its socket, while its
 * upstream is being opened, while too many requests are in flight, and while a gate holds a
 * request or mutes the client; requests sent before the upstream is up wait for it.
 */
public final class KafkaChannelInitializer extends ChannelInitializer<SocketChannel> {

    /**
     * The write buffer marks for both channels of a connection: requests and fetch responses of a
     * MiB and more are common, and a larger high mark avoids toggling reads on every one.
     */
    public static final WriteBufferWaterMark WATER_MARK = new WriteBufferWaterMark(1 << 20, 8 << 20);

    /** The largest response Sluice relays: a broker's fetch answers can be large, and it is trusted. */
    private static final int MAX_RESPONSE_SIZE = Integer.MAX_VALUE - 4;

    private final ClientPipeline pipeline;

    /** @param route where this port's connections go */
    public KafkaChannelInitializer(KafkaSettings settings, ProxyServices services, UpstreamRoute route) {
        ConnectionSpec spec = new ConnectionSpec(
                "Kafka",
                "Kafka connection",
                services,
                settings.clientTls(),
                new Framing(
                        FrameRule.INT32_SIZE,
                        KafkaConnection.maxRequestBeforeAuthentication(settings.maxRequestSize())),
                new Framing(FrameRule.INT32_SIZE, MAX_RESPONSE_SIZE),
                new UpstreamDialer(
                        settings.upstreamChannelType(),
                        settings.connectTimeoutMillis(),
                        WATER_MARK,
                        settings.upstreamTls()),
                // While the client's TLS handshake is pending too: the words Kafka's log line always had.
                new Handshake(
                        settings.handshakeTimeout(),
                        "answer from the broker",
                        "no complete request from the client",
                        "no complete request from the client",
                        "the broker has not answered"),
                ReadGate.CONNECTING | ReadGate.CONNECTION_LIMIT | ReadGate.QUOTA);
        this.pipeline = new ClientPipeline(spec, relay -> new KafkaConnection(relay, settings, services, route));
    }

    @Override
    protected void initChannel(SocketChannel ch) {
        pipeline.assemble(ch);
    }
}
