package io.sluice.server;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.IoHandlerFactory;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.ServerChannel;
import io.netty.channel.WriteBufferWaterMark;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.epoll.EpollServerSocketChannel;
import io.netty.channel.epoll.EpollSocketChannel;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.sluice.pulsar.proxy.ClientChannelInitializer;
import io.sluice.pulsar.proxy.ProxySettings;
import io.sluice.pulsar.proxy.ProxyStats;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.net.InetSocketAddress;
import java.util.concurrent.TimeUnit;

/**
 * A running Sluice: the client-facing Pulsar port and the event loops behind it. Wiring only; the
 * protocol work happens in proxy-core.
 */
public final class SluiceServer implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(SluiceServer.class);

    /** Pulsar clients send 5 MiB frames; a larger high mark avoids toggling reads on every big message. */
    private static final WriteBufferWaterMark WATER_MARK = new WriteBufferWaterMark(1 << 20, 8 << 20);

    private final SluiceConfig config;
    private final EventLoopGroup acceptors;
    private final EventLoopGroup workers;
    private final ProxyStats stats = new ProxyStats();
    private Channel proxyChannel;

    private SluiceServer(SluiceConfig config) {
        this.config = config;
        IoHandlerFactory io = Epoll.isAvailable() ? EpollIoHandler.newFactory() : NioIoHandler.newFactory();
        this.acceptors = new MultiThreadIoEventLoopGroup(1, io);
        this.workers = new MultiThreadIoEventLoopGroup(io);
    }

    /** Binds the proxy port and returns once Sluice accepts connections. */
    public static SluiceServer start(SluiceConfig config) throws InterruptedException {
        SluiceServer server = new SluiceServer(config);
        try {
            server.bind();
        } catch (InterruptedException | RuntimeException e) {
            server.close();
            throw e;
        }
        return server;
    }

    private void bind() throws InterruptedException {
        boolean epoll = Epoll.isAvailable();
        Class<? extends ServerChannel> serverType = epoll ? EpollServerSocketChannel.class : NioServerSocketChannel.class;
        Class<? extends SocketChannel> socketType = epoll ? EpollSocketChannel.class : NioSocketChannel.class;
        ProxySettings settings = new ProxySettings(config.upstream(), config.allowedBrokers(),
                config.lookupMode(), 10_000, socketType);
        proxyChannel = new ServerBootstrap()
                .group(acceptors, workers)
                .channel(serverType)
                .option(ChannelOption.SO_BACKLOG, 1024)
                .childOption(ChannelOption.TCP_NODELAY, true)
                .childOption(ChannelOption.WRITE_BUFFER_WATER_MARK, WATER_MARK)
                .childHandler(new ClientChannelInitializer(settings, stats))
                .bind(config.listen().host(), config.listen().port())
                .sync()
                .channel();
        log.info("Sluice ready: Pulsar protocol on {}, upstream {}, lookup mode {}",
                hostPort(proxyChannel), config.upstream(), config.lookupMode().name().toLowerCase());
    }

    /** The port clients connect to (useful when started on port 0). */
    public int proxyPort() {
        return ((InetSocketAddress) proxyChannel.localAddress()).getPort();
    }

    public ProxyStats stats() {
        return stats;
    }

    public SluiceConfig config() {
        return config;
    }

    @Override
    public void close() {
        if (proxyChannel != null) {
            proxyChannel.close().syncUninterruptibly();
        }
        acceptors.shutdownGracefully(0, 2, TimeUnit.SECONDS).syncUninterruptibly();
        workers.shutdownGracefully(0, 2, TimeUnit.SECONDS).syncUninterruptibly();
    }

    private static String hostPort(Channel channel) {
        InetSocketAddress address = (InetSocketAddress) channel.localAddress();
        return address.getHostString() + ":" + address.getPort();
    }
}
