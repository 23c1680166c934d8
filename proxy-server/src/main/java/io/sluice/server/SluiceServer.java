package io.sluice.server;

import com.github.benmanes.caffeine.cache.Ticker;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.IoHandlerFactory;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.ServerChannel;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollDatagramChannel;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.epoll.EpollServerSocketChannel;
import io.netty.channel.epoll.EpollSocketChannel;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioDatagramChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.resolver.AddressResolverGroup;
import io.netty.resolver.dns.DnsNameResolverBuilder;
import io.netty.util.concurrent.EventExecutor;
import io.netty.util.internal.PlatformDependent;
import io.sluice.adaptive.AdaptiveRates;
import io.sluice.admin.AdminServer;
import io.sluice.admission.AdmissionController;
import io.sluice.admission.AdmissionSampler;
import io.sluice.admission.DirectMemoryUsage;
import io.sluice.admission.EventLoopLag;
import io.sluice.admission.HeapUsage;
import io.sluice.admission.LatencyWindow;
import io.sluice.admission.ProcessCpu;
import io.sluice.admission.Signal;
import io.sluice.admission.SignalSource;
import io.sluice.admission.UpstreamConnectFailures;
import io.sluice.cluster.ClusterStatus;
import io.sluice.frontend.FrontEnd;
import io.sluice.frontend.FrontEndConfig;
import io.sluice.frontend.FrontEndContext;
import io.sluice.frontend.FrontEndFactory;
import io.sluice.limits.LimitsDocument;
import io.sluice.limits.LimitsFileWatch;
import io.sluice.limits.LimitsStore;
import io.sluice.limits.ScopeCatalogue;
import io.sluice.quota.QuotaEngine;
import io.sluice.relay.IncompleteFrames;
import io.sluice.relay.ProxyServices;
import io.sluice.relay.ProxyStats;
import io.sluice.relay.connection.UpstreamResolver;
import io.sluice.relay.tls.FileWatch;
import io.sluice.server.logging.DroppingAsyncAppender;
import io.sluice.status.ThrottleLedger;
import io.sluice.status.TopicActivity;
import io.sluice.status.TopicMeter;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import javax.net.SocketFactory;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

/**
 * A running Sluice: the client-facing front ends of its configuration, the event loops behind
 * them, the limits store and the proxy-wide services. Wiring only; the protocol work happens in
 * the front ends, which the server knows only through {@link FrontEndConfig} and {@link FrontEnd}.
 */
public final class SluiceServer implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(SluiceServer.class);

    /** Idle topics' meters and buckets are forgotten after this long. */
    private static final Duration TOPIC_IDLE_EXPIRY = Duration.ofMinutes(10);

    private final SluiceConfig config;
    private final EventLoopGroup acceptors;
    private final EventLoopGroup workers;
    private final ScheduledExecutorService sampler;
    private final QuotaEngine quotas;
    private final TopicActivity topics;
    private final ThrottleLedger throttles;
    private final AdmissionController admission;
    /** Each front end's upstream publish latency, by protocol: admission reads the slowest, adaptive limits their own. */
    private final Map<String, LatencyWindow> upstreamLatencies = new LinkedHashMap<>();

    private final UpstreamConnectFailures connectFailures = new UpstreamConnectFailures();
    private final LimitsStore limits;
    private final ClusterMember cluster;
    private final EventLoopLag eventLoopLag = new EventLoopLag();
    private final IncompleteFrames incompleteFrames;
    private final AddressResolverGroup<InetSocketAddress> upstreamResolver;
    private AdmissionSampler admissionSampler;
    private AdaptiveRates adaptiveRates;
    private volatile boolean draining;
    private final List<Hosted> frontEnds = new ArrayList<>();
    private AdminServer admin;
    private SecretFiles secrets;

    private SluiceServer(
            SluiceConfig config,
            QuotaEngine quotas,
            LimitsStore limits,
            ClusterMember cluster,
            DnsNameResolverBuilder resolution) {
        this.config = config;
        this.topics = new TopicActivity(TOPIC_IDLE_EXPIRY, config.bounds().maxTrackedTopics());
        this.throttles =
                new ThrottleLedger(Clock.systemUTC(), config.bounds().maxTrackedTopics(), Ticker.systemTicker());
        this.quotas = quotas;
        this.limits = limits;
        this.cluster = cluster;
        config.frontEnds().forEach(frontEnd -> upstreamLatencies.put(frontEnd.protocol(), new LatencyWindow()));
        this.incompleteFrames = new IncompleteFrames(
                config.bounds().maxBufferedBytes(), config.bounds().frameTimeout());
        boolean epoll = Epoll.isAvailable();
        this.upstreamResolver = UpstreamResolver.group(
                resolution,
                epoll ? EpollDatagramChannel.class : NioDatagramChannel.class,
                epoll ? EpollSocketChannel.class : NioSocketChannel.class);
        IoHandlerFactory io = epoll ? EpollIoHandler.newFactory() : NioIoHandler.newFactory();
        this.acceptors = new MultiThreadIoEventLoopGroup(1, io);
        this.workers = new MultiThreadIoEventLoopGroup(io);
        this.admission = new AdmissionController(
                config.admission(),
                Map.of(
                        Signal.CPU,
                        new ProcessCpu(),
                        Signal.HEAP,
                        new HeapUsage(),
                        // Netty allocates outside the JDK's direct-buffer accounting: read its own counter.
                        Signal.DIRECT_MEMORY,
                        new DirectMemoryUsage(PlatformDependent::usedDirectMemory, PlatformDependent.maxDirectMemory()),
                        Signal.EVENT_LOOP_LAG,
                        eventLoopLag,
                        Signal.UPSTREAM_LATENCY_P99,
                        (SignalSource) this::slowestUpstreamP99,
                        Signal.UPSTREAM_CONNECT_FAILURES,
                        connectFailures));
        this.sampler = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "sluice-sampler");
            t.setDaemon(true);
            return t;
        });
    }

    /** The scope kinds of every installed front end, whether it runs or not, so the limits document has one form. */
    static ScopeCatalogue scopeCatalogue() {
        return ScopeCatalogue.of(FrontEndFactory.installed().stream()
                .map(FrontEndFactory::scopes)
                .toList());
    }

    /**
     * Loads the limits and the TLS and token files, binds the proxy port and returns once Sluice
     * accepts connections.
     *
     * @throws io.sluice.settings.InvalidSettingsException when the limits file is not valid
     * @throws IllegalArgumentException when a TLS or token file cannot be used, naming its option
     * @throws IOException when the limits file cannot be read or created
     */
    public static SluiceServer start(SluiceConfig config) throws IOException, InterruptedException {
        QuotaEngine quotas = new QuotaEngine(
                LimitsDocument.empty(),
                System::nanoTime,
                TOPIC_IDLE_EXPIRY,
                config.bounds().maxTrackedIdentities());
        DnsNameResolverBuilder resolution = UpstreamResolver.builder(config.dnsServers());
        ClusterMember cluster = ClusterMember.of(config.cluster(), resolution);
        LimitsStore limits;
        try {
            limits = config.cluster().limitsSource() == ClusterSettings.LimitsSource.STORE
                    ? LimitsStore.openShared(
                            cluster.sharedLimits(), config.limitsFile(), scopeCatalogue(), quotas::update)
                    : LimitsStore.open(config.limitsFile(), scopeCatalogue(), quotas::update);
        } catch (IOException | RuntimeException e) {
            if (cluster != null) {
                cluster.close();
            }
            throw e;
        }
        SluiceServer server = new SluiceServer(config, quotas, limits, cluster, resolution);
        try {
            server.bind();
        } catch (InterruptedException | IOException | RuntimeException e) {
            server.close();
            throw e;
        }
        return server;
    }

    private void bind() throws InterruptedException, IOException {
        List<ProxyStats> stats =
                config.frontEnds().stream().map(FrontEndConfig::newStats).toList();
        secrets = SecretFiles.open(config, stats, FileWatch.DEFAULT_INTERVAL);
        boolean epoll = Epoll.isAvailable();
        Class<? extends ServerChannel> serverType =
                epoll ? EpollServerSocketChannel.class : NioServerSocketChannel.class;
        Class<? extends SocketChannel> socketType = epoll ? EpollSocketChannel.class : NioSocketChannel.class;
        for (int i = 0; i < config.frontEnds().size(); i++) {
            FrontEndConfig frontEnd = config.frontEnds().get(i);
            ProxyServices services = new ProxyServices(
                    quotas,
                    topics,
                    throttles,
                    stats.get(i),
                    admission,
                    upstreamLatencies.get(frontEnd.protocol()),
                    connectFailures,
                    incompleteFrames,
                    upstreamResolver);
            boolean upstreamTls = frontEnd.upstreamTls();
            FrontEndContext context = new FrontEndContext(
                    services,
                    acceptors,
                    workers,
                    serverType,
                    socketType,
                    config.handshakeTimeout(),
                    secrets.portTls(),
                    config.tls().clientCa() != null,
                    upstreamTls ? secrets.upstreamTls() : null,
                    upstreamTls ? secrets.upstreamSockets() : SocketFactory.getDefault(),
                    config.bounds().maxConnections(),
                    config.proxyProtocol());
            frontEnds.add(new Hosted(frontEnd.open(context), services));
        }
        for (Hosted hosted : frontEnds) {
            hosted.frontEnd().start();
            hosted.checkUpstream();
        }
        probeEventLoops();
        admissionSampler = AdmissionSampler.start(admission);
        adaptiveRates = new AdaptiveRates(quotas, upstreamLatencies, quotas.clock());
        adaptiveRates.start();
        sampler.scheduleAtFixedRate(topics::sample, 1, 1, TimeUnit.SECONDS);
        sampler.scheduleWithFixedDelay(() -> frontEnds.forEach(Hosted::checkUpstream), 2, 2, TimeUnit.SECONDS);
        if (!limits.isShared()) {
            LimitsFileWatch limitsFileWatch = new LimitsFileWatch(limits);
            sampler.scheduleWithFixedDelay(limitsFileWatch::check, 1, 1, TimeUnit.SECONDS);
        }
        if (cluster != null) {
            cluster.start(quotas, limits);
        }
        admin = AdminServer.builder()
                .bind(config.admin().host(), config.admin().port())
                .adminToken(secrets.adminToken())
                .readToken(secrets.readToken())
                .maxConnections(config.adminAccess().maxConnections())
                .tls(secrets.adminTls())
                .limits(limits)
                .throttleLedger(throttles)
                .topicActivity(topics)
                .proxyStats(stats.toArray(ProxyStats[]::new))
                .tlsReloadFailures(secrets::tlsReloadFailures)
                .ready(this::isReady)
                .metricsMaxTopics(config.metricsMaxTopics())
                .metricsMaxIdentities(config.metricsMaxIdentities())
                .idleTimeout(config.adminIdleTimeout())
                .admission(admission)
                .adaptive(adaptiveRates::status)
                .cluster(cluster == null ? ClusterStatus::standalone : cluster.status())
                .incompleteFrames(incompleteFrames)
                .logEventsDropped(DroppingAsyncAppender::dropped)
                .build();
        admin.start();
        if (config.adminOpenDoor()) {
            log.warn(
                    "The admin API on {} has no token (--admin-insecure): anyone who reaches it may change every"
                            + " limit. Give it --admin-token-file or bind it to loopback.",
                    config.admin());
        }
        log.info(
                "Sluice ready: {}, admin on {}:{}, limits from {}{}",
                frontEnds.stream().map(hosted -> hosted.frontEnd().describe()).collect(Collectors.joining(", ")),
                admin.address().getHostString(),
                admin.port(),
                limits.isShared() ? "the cluster store" : limits.file(),
                cluster == null ? "" : ", " + cluster.describe());
    }

    /** The p99 publish latency of the slowest upstream, in milliseconds; NaN while none answered. */
    private double slowestUpstreamP99(long nowNanos) {
        double slowest = Double.NaN;
        for (LatencyWindow window : upstreamLatencies.values()) {
            double p99 = window.read(nowNanos);
            if (!Double.isNaN(p99) && (Double.isNaN(slowest) || p99 > slowest)) {
                slowest = p99;
            }
        }
        return slowest;
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

    /** Ready for traffic: every front end listens and reaches its upstream, and Sluice is not draining. */
    public boolean isReady() {
        return !draining && !frontEnds.isEmpty() && frontEnds.stream().allMatch(Hosted::isReady);
    }

    /** The admin API's port (useful when started on port 0). */
    public int adminPort() {
        return admin.port();
    }

    /**
     * The port clients of the front end of {@code protocol} connect to first (useful when started
     * on port 0).
     *
     * @throws IllegalArgumentException when no front end of that protocol runs
     */
    public int port(String protocol) {
        return hosted(protocol).frontEnd().port();
    }

    /** The connection counters of the front end of {@code protocol}. */
    public ProxyStats stats(String protocol) {
        return hosted(protocol).services().stats();
    }

    /** The services the connections of the front end of {@code protocol} use: the engine's and its counters. */
    public ProxyServices services(String protocol) {
        return hosted(protocol).services();
    }

    private Hosted hosted(String protocol) {
        return frontEnds.stream()
                .filter(hosted -> hosted.services().stats().protocol().equals(protocol))
                .findFirst()
                .orElseThrow(() -> new IllegalArgumentException("no " + protocol + " front end runs"));
    }

    public LimitsStore limits() {
        return limits;
    }

    public SluiceConfig config() {
        return config;
    }

    /**
     * The SIGTERM path: stops accepting, asks every connection to drain (no new commands; held
     * sends go on to the broker and their receipts back to the client), waits up to the drain
     * timeout for them to close, then closes the rest. Clients reconnect elsewhere and resend only
     * what the broker never acknowledged.
     */
    public void drainAndClose() {
        draining = true;
        frontEnds.forEach(hosted -> hosted.frontEnd().drain());
        long deadline = System.nanoTime() + config.drainTimeout().toNanos();
        while (openConnections() > 0 && System.nanoTime() < deadline) {
            try {
                Thread.sleep(20);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        if (openConnections() > 0) {
            log.warn(
                    "Drain timeout: closing {} connections with {} held messages; their clients will resend them",
                    openConnections(),
                    heldMessages());
        }
        close();
    }

    private int openConnections() {
        return frontEnds.stream()
                .mapToInt(hosted -> hosted.frontEnd().openConnections())
                .sum();
    }

    private long heldMessages() {
        long held = 0;
        for (TopicMeter meter : topics.meters()) {
            held += meter.heldMessages();
        }
        return held;
    }

    @Override
    public void close() {
        draining = true;
        frontEnds.forEach(hosted -> hosted.frontEnd().close());
        if (admin != null) {
            admin.close();
        }
        sampler.shutdownNow();
        if (secrets != null) {
            secrets.close();
        }
        if (cluster != null) {
            cluster.close();
        }
        if (admissionSampler != null) {
            admissionSampler.close();
        }
        if (adaptiveRates != null) {
            adaptiveRates.close();
        }
        upstreamResolver.close();
        acceptors.shutdownGracefully(0, 2, TimeUnit.SECONDS).syncUninterruptibly();
        workers.shutdownGracefully(0, 2, TimeUnit.SECONDS).syncUninterruptibly();
    }

    /** A front end the server started, the services its connections use, and what its last upstream check found. */
    private static final class Hosted {

        private final FrontEnd frontEnd;
        private final ProxyServices services;
        private volatile boolean upstreamReachable;

        Hosted(FrontEnd frontEnd, ProxyServices services) {
            this.frontEnd = frontEnd;
            this.services = services;
        }

        FrontEnd frontEnd() {
            return frontEnd;
        }

        ProxyServices services() {
            return services;
        }

        /** Asks the front end whether its upstream accepts connections; may block, never on an event loop. */
        void checkUpstream() {
            upstreamReachable = frontEnd.checkUpstream();
        }

        /** Its first port listens and its upstream answered the last check. */
        boolean isReady() {
            return frontEnd.ports().listening() && upstreamReachable;
        }
    }
}
