package io.sluice.server;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
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
import io.netty.channel.group.ChannelGroup;
import io.netty.channel.group.DefaultChannelGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.util.concurrent.GlobalEventExecutor;
import io.netty.util.concurrent.EventExecutor;
import io.netty.util.internal.PlatformDependent;
import io.sluice.admin.AdminServer;
import io.sluice.admission.AdmissionController;
import io.sluice.admission.AdmissionSampler;
import io.sluice.admission.DirectMemoryUsage;
import io.sluice.admission.EventLoopLag;
import io.sluice.admission.HeapUsage;
import io.sluice.admission.LatencyWindow;
import io.sluice.admission.ProcessCpu;
import io.sluice.admission.Signal;
import io.sluice.admission.UpstreamConnectFailures;
import io.sluice.pulsar.connection.PulsarChannelInitializer;
import io.sluice.relay.Drain;
import io.sluice.relay.ProxyServices;
import io.sluice.pulsar.connection.PulsarSettings;
import io.sluice.relay.ProxyStats;
import io.sluice.limits.LimitsDocument;
import io.sluice.limits.LimitsStore;
import io.sluice.quota.QuotaEngine;
import io.sluice.status.ThrottleLedger;
import io.sluice.status.TopicActivity;
import io.sluice.status.TopicMeter;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * A running Sluice: the client-facing Pulsar port, the event loops behind it, the limits store
 * and the proxy-wide services. Wiring only; the protocol work happens in proxy-core.
 */
public final class SluiceServer implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(SluiceServer.class);

    /** Pulsar clients send 5 MiB frames; a larger high mark avoids toggling reads on every big message. */
    private static final WriteBufferWaterMark WATER_MARK = new WriteBufferWaterMark(1 << 20, 8 << 20);

    /** Idle topics' meters and buckets are forgotten after this long. */
    private static final Duration TOPIC_IDLE_EXPIRY = Duration.ofMinutes(10);

    private final SluiceConfig config;
    private final EventLoopGroup acceptors;
    private final EventLoopGroup workers;
    private final ScheduledExecutorService sampler;
    private final ChannelGroup clients = new DefaultChannelGroup("sluice-clients", GlobalEventExecutor.INSTANCE);
    private final ProxyServices services;
    private final LimitsStore limits;
    private final EventLoopLag eventLoopLag = new EventLoopLag();
    private AdmissionSampler admissionSampler;
    private volatile boolean draining;
    private volatile boolean upstreamReachable;
    private Channel proxyChannel;
    private AdminServer admin;

    private SluiceServer(SluiceConfig config, QuotaEngine quotas, LimitsStore limits) {
        this.config = config;
        this.limits = limits;
        IoHandlerFactory io = Epoll.isAvailable() ? EpollIoHandler.newFactory() : NioIoHandler.newFactory();
        this.acceptors = new MultiThreadIoEventLoopGroup(1, io);
        this.workers = new MultiThreadIoEventLoopGroup(io);
        LatencyWindow upstreamLatency = new LatencyWindow();
        UpstreamConnectFailures connectFailures = new UpstreamConnectFailures();
        AdmissionController admission = new AdmissionController(config.admission(), Map.of(
                Signal.CPU, new ProcessCpu(),
                Signal.HEAP, new HeapUsage(),
                // Netty allocates outside the JDK's direct-buffer accounting: read its own counter.
                Signal.DIRECT_MEMORY, new DirectMemoryUsage(PlatformDependent::usedDirectMemory,
                        PlatformDependent.maxDirectMemory()),
                Signal.EVENT_LOOP_LAG, eventLoopLag,
                Signal.UPSTREAM_LATENCY_P99, upstreamLatency,
                Signal.UPSTREAM_CONNECT_FAILURES, connectFailures));
        this.services = new ProxyServices(quotas, new TopicActivity(TOPIC_IDLE_EXPIRY),
                new ThrottleLedger(Clock.systemUTC()), new ProxyStats(), admission, upstreamLatency, connectFailures);
        this.sampler = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "sluice-sampler");
            t.setDaemon(true);
            return t;
        });
    }

    /**
     * Loads the limits, binds the proxy port and returns once Sluice accepts connections.
     *
     * @throws io.sluice.quota.InvalidSettingsException when the limits file is not valid
     * @throws IOException when the limits file cannot be read or created
     */
    public static SluiceServer start(SluiceConfig config) throws IOException, InterruptedException {
        QuotaEngine quotas = new QuotaEngine(LimitsDocument.empty(), System::nanoTime, TOPIC_IDLE_EXPIRY);
        LimitsStore limits = LimitsStore.open(config.limitsFile(), quotas::update);
        SluiceServer server = new SluiceServer(config, quotas, limits);
        try {
            server.bind();
        } catch (InterruptedException | IOException | RuntimeException e) {
            server.close();
            throw e;
        }
        return server;
    }

    private void bind() throws InterruptedException, IOException {
        boolean epoll = Epoll.isAvailable();
        Class<? extends ServerChannel> serverType = epoll ? EpollServerSocketChannel.class : NioServerSocketChannel.class;
        Class<? extends SocketChannel> socketType = epoll ? EpollSocketChannel.class : NioSocketChannel.class;
        PulsarSettings settings = new PulsarSettings(config.upstream(), config.allowedBrokers(),
                config.lookupMode(), 10_000, socketType, PulsarSettings.DEFAULT_THROTTLE_RECEIPT_WINDOW,
                config.handshakeTimeout());
        PulsarChannelInitializer proxyPipeline = new PulsarChannelInitializer(settings, services);
        proxyChannel = new ServerBootstrap()
                .group(acceptors, workers)
                .channel(serverType)
                .option(ChannelOption.SO_BACKLOG, 1024)
                .childOption(ChannelOption.TCP_NODELAY, true)
                .childOption(ChannelOption.WRITE_BUFFER_WATER_MARK, WATER_MARK)
                .childHandler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel ch) {
                        clients.add(ch);
                        ch.pipeline().addLast(proxyPipeline);
                    }
                })
                .bind(config.listen().host(), config.listen().port())
                .sync()
                .channel();
        checkUpstream();
        probeEventLoops();
        admissionSampler = AdmissionSampler.start(services.admission());
        sampler.scheduleAtFixedRate(services.topics()::sample, 1, 1, TimeUnit.SECONDS);
        sampler.scheduleWithFixedDelay(this::checkUpstream, 2, 2, TimeUnit.SECONDS);
        admin = AdminServer.builder()
                .bind(config.admin().host(), config.admin().port())
                .adminToken(config.adminToken())
                .limits(limits)
                .throttleLedger(services.throttles())
                .topicActivity(services.topics())
                .proxyStats(services.stats())
                .ready(this::isReady)
                .metricsMaxTopics(config.metricsMaxTopics())
                .idleTimeout(config.adminIdleTimeout())
                .admission(services.admission())
                .build();
        admin.start();
        log.info("Sluice ready: Pulsar protocol on {}, admin on {}:{}, upstream {}, lookup mode {}, limits from {}",
                hostPort(proxyChannel), admin.address().getHostString(), admin.port(), config.upstream(),
                config.lookupMode().name().toLowerCase(), limits.file());
    }

    /** Each worker loop ticks a probe; a late tick is event-loop lag, an admission signal. */
    private void probeEventLoops() {
        long period = eventLoopLag.probePeriod().toNanos();
        for (EventExecutor loop : workers) {
            loop.execute(() -> {
                EventLoopLag.Probe probe = eventLoopLag.register(System.nanoTime());
                loop.scheduleWithFixedDelay(() -> probe.tick(System.nanoTime()), period, period, TimeUnit.NANOSECONDS);
            });
        }
    }

    /** Ready for traffic: listening, the upstream broker answers, and not draining. */
    public boolean isReady() {
        return !draining && proxyChannel != null && proxyChannel.isActive() && upstreamReachable;
    }

    /** Whether the upstream broker accepts TCP connections; runs on the sampler thread, never on an event loop. */
    private void checkUpstream() {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(config.upstream().host(), config.upstream().port()), 1_000);
            upstreamReachable = true;
        } catch (IOException e) {
            upstreamReachable = false;
        }
    }

    /** The admin API's port (useful when started on port 0). */
    public int adminPort() {
        return admin.port();
    }

    /** The port clients connect to (useful when started on port 0). */
    public int proxyPort() {
        return ((InetSocketAddress) proxyChannel.localAddress()).getPort();
    }

    public ProxyStats stats() {
        return services.stats();
    }

    public ProxyServices services() {
        return services;
    }

    public LimitsStore limits() {
        return limits;
    }

    public SluiceConfig config() {
        return config;
    }

    /** True from the start of a drain on: readiness probes must fail so no new clients come. */
    public boolean isDraining() {
        return draining;
    }

    /**
     * The SIGTERM path: stops accepting, asks every connection to drain (no new commands; held
     * sends go on to the broker and their receipts back to the client), waits up to the drain
     * timeout for them to close, then closes the rest. Clients reconnect elsewhere and resend only
     * what the broker never acknowledged.
     */
    public void drainAndClose() {
        draining = true;
        if (proxyChannel != null) {
            proxyChannel.close().syncUninterruptibly();
        }
        clients.forEach(Drain::request);
        long deadline = System.nanoTime() + config.drainTimeout().toNanos();
        while (!clients.isEmpty() && System.nanoTime() < deadline) {
            try {
                Thread.sleep(20);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        if (!clients.isEmpty()) {
            log.warn("Drain timeout: closing {} connections with {} held messages; their clients will resend them",
                    clients.size(), heldMessages());
        }
        close();
    }

    private long heldMessages() {
        long held = 0;
        for (TopicMeter meter : services.topics().meters()) {
            held += meter.heldMessages();
        }
        return held;
    }

    @Override
    public void close() {
        draining = true;
        if (proxyChannel != null) {
            proxyChannel.close().syncUninterruptibly();
        }
        clients.close().awaitUninterruptibly(5, TimeUnit.SECONDS);
        if (admin != null) {
            admin.close();
        }
        sampler.shutdownNow();
        if (admissionSampler != null) {
            admissionSampler.close();
        }
        acceptors.shutdownGracefully(0, 2, TimeUnit.SECONDS).syncUninterruptibly();
        workers.shutdownGracefully(0, 2, TimeUnit.SECONDS).syncUninterruptibly();
    }

    private static String hostPort(Channel channel) {
        InetSocketAddress address = (InetSocketAddress) channel.localAddress();
        return address.getHostString() + ":" + address.getPort();
    }
}
