package io.sluice.relay.connection;

import io.netty.channel.Channel;
import io.netty.channel.ChannelPipeline;
import io.sluice.relay.ProxyStats;
import io.sluice.relay.accept.ConnectionRateGate;
import io.sluice.relay.accept.ConnectionRates;
import io.sluice.relay.tls.TlsHandshakeWatch;

import java.util.Objects;

/**
 * Assembles the pipeline of a client connection that a front end's port accepted:
 * <pre>
 * ConnectionRateGate (until the connection is admitted)
 *   -&gt; [SslHandler -&gt; TlsHandshakeWatch, when clients speak TLS] -&gt; FrameDecoder
 *   -&gt; HandshakeDeadline (until the front end's handshake is done) -&gt; ClientHandler
 * </pre>
 * The handshake deadline starts when the connection is accepted, so it bounds the TLS handshake
 * too, and a PROXY protocol header before it: with {@code --proxy-protocol} the port puts
 * {@code io.sluice.relay.proxyprotocol}'s header gate in front of this pipeline (see
 * {@code frontend/ClientPorts}), which holds back {@code channelActive} until the client's address
 * is known; the connection rate gate charges the client's address then, and holds the connection
 * back while it is over its rate. When the client is connected, {@code ClientHandler} opens its {@link ProxiedConnection}
 * and the front end's {@link ConnectionProtocol}; the upstream's pipeline is assembled by the
 * connection's {@link UpstreamDialer}. Thread-safe: one serves every connection of a port.
 */
public final class ClientPipeline {

    private final ConnectionSpec spec;
    private final ConnectionProtocol.Factory protocols;
    private final TlsHandshakeWatch tlsWatch;
    private final ConnectionRates rates;

    /** @param protocols makes each connection's protocol side */
    public ClientPipeline(ConnectionSpec spec, ConnectionProtocol.Factory protocols) {
        this.spec = Objects.requireNonNull(spec, "spec");
        this.protocols = Objects.requireNonNull(protocols, "protocols");
        ProxyStats stats = spec.services().stats();
        this.rates = new ConnectionRates(spec.services().quotas());
        this.tlsWatch = spec.clientTls() == null
                ? null
                : new TlsHandshakeWatch(spec.port(), () -> stats.protocolError(TlsHandshakeWatch.REASON));
    }

    /** Assembles {@code ch}'s pipeline, from a port's channel initializer. */
    public void assemble(Channel ch) {
        ChannelPipeline pipeline = ch.pipeline();
        boolean tls = spec.clientTls() != null;
        pipeline.addLast(
                "connection-rate", new ConnectionRateGate(rates, spec.services().stats(), spec.connections()));
        if (tls) {
            pipeline.addLast("tls", spec.clientTls().newServerHandler(ch.alloc()));
            pipeline.addLast("tls-handshake", tlsWatch);
        }
        FrameDecoder frames =
                spec.clientFrames().newClientDecoder(spec.services().incompleteFrames());
        HandshakeDeadline deadline = new HandshakeDeadline(spec, tls);
        pipeline.addLast("frames", frames);
        pipeline.addLast("handshake-timeout", deadline);
        pipeline.addLast("client", new ClientHandler(spec, protocols, frames, deadline));
    }
}
