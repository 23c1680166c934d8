package io.sluice.frontend;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.ServerChannel;
import io.netty.channel.WriteBufferWaterMark;
import io.netty.channel.group.ChannelGroup;
import io.netty.channel.group.DefaultChannelGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.util.concurrent.GlobalEventExecutor;
import io.sluice.relay.Drain;
import io.sluice.relay.ProxyStats;
import io.sluice.relay.RepeatedWarning;
import io.sluice.relay.proxyprotocol.ProxyProtocol;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.net.InetSocketAddress;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The ports one front end listens on and the client connections they accepted: each port binds on
 * the server's event loops with the front end's pipeline, and all of them drain and close together.
 * A front end gets its own from {@link FrontEndContext#ports}. Thread-safe: ports may open from an
 * event loop (a Kafka node first seen in a response) while the server drains from its shutdown
 * thread.
 *
 * <p>The ports together keep at most {@code maxConnections} client connections open: one accepted
 * past them is closed at once, before any handler of the front end sees it, and counted in
 * {@code sluice_connections_refused_total{reason="max_connections"}}.
 *
 * <p>With {@code --proxy-protocol} each accepted connection's pipeline starts with the PROXY
 * protocol's header gate ({@link ProxyProtocol#newHeaderGate}), before the front end's own (its
 * TLS and framing): the hook before framing every port has. Off, nothing is added.
 */
public final class ClientPorts {

    /** The reason a connection past {@code --max-connections} is counted under. */
    public static final String MAX_CONNECTIONS = "max_connections";

    private static final Logger log = LoggerFactory.getLogger(ClientPorts.class);
    private static final RepeatedWarning REFUSED = new RepeatedWarning();

    private final EventLoopGroup acceptors;
    private final EventLoopGroup workers;
    private final Class<? extends ServerChannel> serverType;
    private final WriteBufferWaterMark waterMark;
    private final ChannelGroup clients;
    private final ProxyStats stats;
    private final int maxConnections;
    private final ProxyProtocol proxyProtocol;
    private final AtomicInteger open = new AtomicInteger();
    private final Queue<Channel> listeners = new ConcurrentLinkedQueue<>();
    private final AtomicReference<Channel> first = new AtomicReference<>();
    private volatile boolean closing;

    /**
     * @param stats          the front end's counters; its protocol label names its group of client channels
     * @param maxConnections client connections open at once, past which new ones are refused
     * @param waterMark      when a client channel counts as unwritable (its reads then pause)
     * @param proxyProtocol  whether connections start with a PROXY protocol header
     */
    ClientPorts(
            ProxyStats stats,
            int maxConnections,
            EventLoopGroup acceptors,
            EventLoopGroup workers,
            Class<? extends ServerChannel> serverType,
            WriteBufferWaterMark waterMark,
            ProxyProtocol proxyProtocol) {
        this.acceptors = acceptors;
        this.workers = workers;
        this.serverType = serverType;
        this.waterMark = waterMark;
        this.stats = stats;
        this.maxConnections = maxConnections;
        this.proxyProtocol = proxyProtocol;
        this.clients = new DefaultChannelGroup("sluice-" + stats.protocol() + "-clients", GlobalEventExecutor.INSTANCE);
    }

    /**
     * Binds {@code host:port}; each accepted connection gets {@code pipeline}, a sharable handler
     * that assembles the front end's pipeline. The first port bound is the one clients connect to
     * first ({@link #address()}). A port that binds after {@link #drain()} or {@link #close()}
     * began is closed at once.
     */
    public ChannelFuture bind(String host, int port, ChannelHandler pipeline) {
        ChannelFuture bound = new ServerBootstrap()
                .group(acceptors, workers)
                .channel(serverType)
                .option(ChannelOption.SO_BACKLOG, 1024)
                .childOption(ChannelOption.TCP_NODELAY, true)
                .childOption(ChannelOption.WRITE_BUFFER_WATER_MARK, waterMark)
                .childHandler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel ch) {
                        if (open.incrementAndGet() > maxConnections) {
                            open.decrementAndGet();
                            refuse(ch);
                            return;
                        }
                        ch.closeFuture().addListener(closed -> open.decrementAndGet());
                        clients.add(ch);
                        ChannelHandler header = proxyProtocol.newHeaderGate(stats.protocol() + " connection", stats);
                        if (header != null) {
                            ch.pipeline().addLast("proxy-protocol", header);
                        }
                        ch.pipeline().addLast(pipeline);
                    }
                })
                .bind(host, port);
        first.compareAndSet(null, bound.channel());
        bound.addListener((ChannelFuture done) -> {
            if (done.isSuccess()) {
                listeners.add(done.channel());
                if (closing) {
                    done.channel().close();
                }
            }
        });
        return bound;
    }

    private void refuse(SocketChannel ch) {
        stats.connectionRefused(MAX_CONNECTIONS);
        long leftOut = REFUSED.admit();
        if (leftOut >= 0) {
            log.warn(
                    "Refusing {} connection from {}: {} open, the most --max-connections allows ({}){}",
                    stats.protocol(),
                    ch.remoteAddress(),
                    maxConnections,
                    MAX_CONNECTIONS,
                    RepeatedWarning.leftOut(leftOut));
        }
        ch.close();
    }

    /** The address of the first port, once it is bound. */
    public InetSocketAddress address() {
        return (InetSocketAddress) first.get().localAddress();
    }

    /** Whether the first port accepts connections and neither {@link #drain()} nor {@link #close()} began. */
    public boolean listening() {
        Channel channel = first.get();
        return !closing && channel != null && channel.isActive();
    }

    /** Whether {@link #drain()} or {@link #close()} began. */
    public boolean closing() {
        return closing;
    }

    /** Stops accepting on every port and asks every client connection to finish what it holds, then close. */
    public void drain() {
        closeListeners();
        clients.forEach(Drain::request);
    }

    /** Client connections still open. */
    public int openConnections() {
        return clients.size();
    }

    /** Closes every port and every client connection. */
    public void close() {
        closeListeners();
        clients.close().awaitUninterruptibly(5, TimeUnit.SECONDS);
    }

    private void closeListeners() {
        closing = true;
        listeners.forEach(listener -> listener.close().syncUninterruptibly());
    }
}
