package io.sluice.pulsar.frontend;

import io.netty.channel.WriteBufferWaterMark;
import io.sluice.frontend.ClientPorts;
import io.sluice.frontend.FrontEnd;
import io.sluice.frontend.FrontEndContext;
import io.sluice.frontend.HostPort;
import io.sluice.pulsar.connection.PulsarChannelInitializer;
import io.sluice.pulsar.connection.PulsarSettings;

import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.Locale;

/** The Pulsar protocol port: {@code --listen} in front of {@code --upstream}. */
final class PulsarFrontEnd implements FrontEnd {

    /** Pulsar clients send 5 MiB frames; a larger high mark avoids toggling reads on every big message. */
    private static final WriteBufferWaterMark WATER_MARK = new WriteBufferWaterMark(1 << 20, 8 << 20);

    private static final int UPSTREAM_CONNECT_TIMEOUT_MILLIS = 10_000;
    private static final Duration PROBE_TIMEOUT = Duration.ofSeconds(1);

    private final PulsarConfig config;
    private final FrontEndContext context;
    private final ClientPorts ports;

    PulsarFrontEnd(PulsarConfig config, FrontEndContext context) {
        this.config = config;
        this.context = context;
        this.ports = context.ports(WATER_MARK);
    }

    @Override
    public void start() throws InterruptedException {
        PulsarSettings settings = new PulsarSettings(
                config.upstream(),
                config.allowedBrokers(),
                config.lookupMode(),
                UPSTREAM_CONNECT_TIMEOUT_MILLIS,
                context.socketChannelType(),
                PulsarSettings.DEFAULT_THROTTLE_RECEIPT_WINDOW,
                context.handshakeTimeout(),
                context.portTls(),
                context.upstreamTls(),
                config.roleClaim());
        PulsarChannelInitializer pipeline = new PulsarChannelInitializer(settings, context.services());
        ports.bind(config.listen().host(), config.listen().port(), pipeline).sync();
    }

    @Override
    public String describe() {
        InetSocketAddress address = ports.address();
        String clients = context.portTls() == null
                ? ""
                : context.clientCertificates() ? "TLS with client certificates, " : "TLS, ";
        String upstream = (config.upstreamTls() ? "pulsar+ssl://" : "pulsar://")
                + config.upstream().hostPort();
        return "Pulsar protocol on " + address.getHostString() + ":" + address.getPort() + " (" + clients + "upstream "
                + upstream + ", lookup mode " + config.lookupMode().name().toLowerCase(Locale.ROOT) + ")";
    }

    @Override
    public ClientPorts ports() {
        return ports;
    }

    @Override
    public boolean checkUpstream() {
        return new HostPort(config.upstream().host(), config.upstream().port()).acceptsConnections(PROBE_TIMEOUT);
    }
}
