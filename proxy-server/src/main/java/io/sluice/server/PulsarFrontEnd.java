package io.sluice.server;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.ServerChannel;
import io.netty.channel.WriteBufferWaterMark;
import io.netty.channel.group.ChannelGroup;
import io.netty.channel.group.DefaultChannelGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.util.concurrent.GlobalEventExecutor;
import io.sluice.pulsar.connection.PulsarChannelInitializer;
import io.sluice.pulsar.connection.PulsarSettings;
import io.sluice.relay.Drain;
import io.sluice.relay.ProxyServices;
import io.sluice.relay.ProxyStats;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

/** The Pulsar protocol port: {@code --listen} in front of {@code --upstream}. */
final class PulsarFrontEnd implements FrontEnd {

    /** Pulsar clients send 5 MiB frames; a larger high mark avoids toggling reads on every big message. */
    private static final WriteBufferWaterMark WATER_MARK = new WriteBufferWaterMark(1 << 20, 8 << 20);
    private static final int UPSTREAM_CONNECT_TIMEOUT_MILLIS = 10_000;

    private final SluiceConfig config;
    private final ProxyServices services;
    private final EventLoopGroup acceptors;
    private final EventLoopGroup workers;
    private final Class<? extends ServerChannel> serverType;
    private final Class<? extends SocketChannel> socketType;
    private final SecretFiles secrets;
    private final ChannelGroup clients = new DefaultChannelGroup("sluice-pulsar-clients", GlobalEventExecutor.INSTANCE);
    private volatile boolean upstreamReachable;
    private volatile boolean draining;
    private Channel listener;

    PulsarFrontEnd(SluiceConfig config, ProxyServices services, EventLoopGroup acceptors, EventLoopGroup workers,
                   Class<? extends ServerChannel> serverType, Class<? extends SocketChannel> socketType,
                   SecretFiles secrets) {
        this.config = config;
        this.services = services;
        this.acceptors = acceptors;
        this.workers = workers;
        this.serverType = serverType;
        this.socketType = socketType;
        this.secrets = secrets;
    }

    @Override
    public void start() throws InterruptedException {
        PulsarSettings settings = new PulsarSettings(config.upstream(), config.allowedBrokers(), config.lookupMode(),
                UPSTREAM_CONNECT_TIMEOUT_MILLIS, socketType, PulsarSettings.DEFAULT_THROTTLE_RECEIPT_WINDOW,
                config.handshakeTimeout(), secrets.portTls(), secrets.pulsarUpstreamTls());
        PulsarChannelInitializer pipeline = new PulsarChannelInitializer(settings, services);
        listener = new ServerBootstrap()
                .group(acceptors, workers)
                .channel(serverType)
                .option(ChannelOption.SO_BACKLOG, 1024)
                .childOption(ChannelOption.TCP_NODELAY, true)
                .childOption(ChannelOption.WRITE_BUFFER_WATER_MARK, WATER_MARK)
                .childHandler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel ch) {
                        clients.add(ch);
                        ch.pipeline().addLast(pipeline);
                    }
                })
                .bind(config.listen().host(), config.listen().port())
                .sync()
                .channel();
        checkUpstream();
    }

    @Override
    public String describe() {
        InetSocketAddress address = (InetSocketAddress) listener.localAddress();
        TlsConfig tls = config.tls();
        String clients = !tls.serves() ? "" : tls.clientCa() == null ? "TLS, " : "TLS with client certificates, ";
        String upstream = (tls.pulsarUpstream() ? "pulsar+ssl://" : "pulsar://") + config.upstream().hostPort();
        return "Pulsar protocol on " + address.getHostString() + ":" + address.getPort() + " (" + clients + "upstream "
                + upstream + ", lookup mode " + config.lookupMode().name().toLowerCase(Locale.ROOT) + ")";
    }

    /** The port clients connect to (useful when started on port 0). */
    int port() {
        return ((InetSocketAddress) listener.localAddress()).getPort();
    }

    @Override
    public boolean isReady() {
        return !draining && listener != null && listener.isActive() && upstreamReachable;
    }

    @Override
    public void checkUpstream() {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(config.upstream().host(), config.upstream().port()), 1_000);
            upstreamReachable = true;
        } catch (IOException e) {
            upstreamReachable = false;
        }
    }

    @Override
    public void drain() {
        draining = true;
        if (listener != null) {
            listener.close().syncUninterruptibly();
        }
        clients.forEach(Drain::request);
    }

    @Override
    public int openConnections() {
        return clients.size();
    }

    @Override
    public ProxyStats stats() {
        return services.stats();
    }

    @Override
    public void close() {
        draining = true;
        if (listener != null) {
            listener.close().syncUninterruptibly();
        }
        clients.close().awaitUninterruptibly(5, TimeUnit.SECONDS);
    }
}
