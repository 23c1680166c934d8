package io.sluice.toy.line;

import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.WriteBufferWaterMark;
import io.sluice.frontend.ClientPorts;
import io.sluice.frontend.FrontEnd;
import io.sluice.frontend.FrontEndContext;
import io.sluice.relay.ReadGate;
import io.sluice.relay.connection.ClientPipeline;
import io.sluice.relay.connection.ConnectionSpec;
import io.sluice.relay.connection.ConnectionSpec.Framing;
import io.sluice.relay.connection.ConnectionSpec.Handshake;
import io.sluice.relay.connection.UpstreamDialer;

import java.time.Duration;

/** The line protocol's port: every connection on the relay's skeleton, its protocol a {@link LineConnection}. */
final class LineFrontEnd implements FrontEnd {

    private static final int MAX_LINE = 64 * 1024;
    private static final WriteBufferWaterMark WATER_MARK = new WriteBufferWaterMark(32 * 1024, 64 * 1024);

    private final LineConfig config;
    private final ClientPorts ports;
    private final ClientPipeline pipeline;

    LineFrontEnd(LineConfig config, FrontEndContext context) {
        this.config = config;
        this.ports = context.ports(WATER_MARK);
        Framing lines = new Framing(new LineFrameRule(), MAX_LINE);
        ConnectionSpec spec = new ConnectionSpec(
                "Line",
                "line connection",
                context.services(),
                context.portTls(),
                lines,
                lines,
                new UpstreamDialer(context.socketChannelType(), 2_000, WATER_MARK, context.upstreamTls()),
                new Handshake(context.handshakeTimeout(), "line", "TLS handshake not done", "no line", "no upstream"),
                ReadGate.QUOTA | ReadGate.CONNECTION_LIMIT);
        this.pipeline = new ClientPipeline(spec, relay -> new LineConnection(relay, context.services(), config));
    }

    @Override
    public void start() throws InterruptedException {
        ports.bind(config.listen().host(), config.listen().port(), new ChannelInitializer<Channel>() {
                    @Override
                    protected void initChannel(Channel ch) {
                        pipeline.assemble(ch);
                    }
                })
                .sync();
    }

    @Override
    public String describe() {
        return "line protocol on " + ports.address() + " (upstream " + config.upstream() + ")";
    }

    @Override
    public boolean checkUpstream() {
        return config.upstream().acceptsConnections(Duration.ofSeconds(1));
    }

    @Override
    public ClientPorts ports() {
        return ports;
    }
}
