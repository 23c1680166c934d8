package io.sluice.server;

import io.netty.channel.Channel;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.ServerChannel;
import io.netty.channel.WriteBufferWaterMark;
import io.netty.channel.socket.SocketChannel;
import io.sluice.pulsar.connection.PulsarChannelInitializer;
import io.sluice.pulsar.connection.PulsarSettings;
import io.sluice.relay.ProxyServices;
import io.sluice.relay.ProxyStats;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.util.Locale;

/** The Pulsar protocol port: {@code --listen} in front of {@code --upstream}. */
final class PulsarFrontEnd implements FrontEnd {

    /** Pulsar clients send 5 MiB frames; a larger high mark avoids toggling reads on every big message. */
    private static final WriteBufferWaterMark WATER_MARK = new WriteBufferWaterMark(1 << 20, 8 << 20);

    private static final int UPSTREAM_CONNECT_TIMEOUT_MILLIS = 10_000;

    private final SluiceConfig config;
    private final ProxyServices services;
    private final Class<? extends SocketChannel> socketType;
    private final SecretFiles secrets;
    private final ClientPorts ports;
    private volatile boolean upstreamReachable;
    private Channel listener;

    PulsarFrontEnd(
            SluiceConfig config,
            ProxyServices services,
            EventLoopGroup acceptors,
            EventLoopGroup workers,
            Class<? extends ServerChannel> serverType,
            Class<? extends SocketChannel> socketType,
            SecretFiles secrets) {
        this.config = config;
        this.services = services;
        this.socketType = socketType;
        this.secrets = secrets;
        this.ports = new ClientPorts("pulsar", acceptors, workers, serverType, WATER_MARK);
    }

    @Override
    public void start() throws InterruptedException {
        PulsarSettings settings = new PulsarSettings(
                config.upstream(),
                config.allowedBrokers(),
                config.lookupMode(),
                UPSTREAM_CONNECT_TIMEOUT_MILLIS,
                socketType,
                PulsarSettings.DEFAULT_THROTTLE_RECEIPT_WINDOW,
                config.handshakeTimeout(),
                secrets.portTls(),
                secrets.pulsarUpstreamTls());
        PulsarChannelInitializer pipeline = new PulsarChannelInitializer(settings, services);
        listener = ports.bind(config.listen().host(), config.listen().port(), pipeline)
                .sync()
                .channel();
        checkUpstream();
    }

    @Override
    public String describe() {
        InetSocketAddress address = (InetSocketAddress) listener.localAddress();
        TlsConfig tls = config.tls();
        String clients = !tls.serves() ? "" : tls.clientCa() == null ? "TLS, " : "TLS with client certificates, ";
        String upstream = (tls.pulsarUpstream() ? "pulsar+ssl://" : "pulsar://")
                + config.upstream().hostPort();
        return "Pulsar protocol on " + address.getHostString() + ":" + address.getPort() + " (" + clients + "upstream "
                + upstream + ", lookup mode " + config.lookupMode().name().toLowerCase(Locale.ROOT) + ")";
    }

    /** The port clients connect to (useful when started on port 0). */
    int port() {
        return ((InetSocketAddress) listener.localAddress()).getPort();
    }

    @Override
    public boolean isReady() {
        return !ports.closing() && listener != null && listener.isActive() && upstreamReachable;
    }

    @Override
    public void checkUpstream() {
        try (Socket socket = new Socket()) {
            socket.connect(
                    new InetSocketAddress(
                            config.upstream().host(), config.upstream().port()),
                    1_000);
            upstreamReachable = true;
        } catch (IOException e) {
            upstreamReachable = false;
        }
    }

    @Override
    public void drain() {
        ports.drain();
    }

    @Override
    public int openConnections() {
        return ports.openConnections();
    }

    @Override
    public ProxyStats stats() {
        return services.stats();
    }

    @Override
    public void close() {
        ports.close();
    }
}
