package io.sluice.server;

import io.netty.channel.EventLoopGroup;
import io.netty.channel.IoHandlerFactory;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.ServerChannel;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.epoll.EpollServerSocketChannel;
import io.netty.channel.epoll.EpollSocketChannel;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
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
import io.sluice.cluster.ClusterStatus;
import io.sluice.kafka.codec.ApiLabels;
import io.sluice.kafka.scopes.KafkaScopes;
import io.sluice.limits.LimitsDocument;
import io.sluice.limits.LimitsFileWatch;
import io.sluice.limits.LimitsStore;
import io.sluice.limits.ScopeCatalogue;
import io.sluice.pulsar.scopes.PulsarScopes;
import io.sluice.quota.QuotaEngine;
import io.sluice.relay.ProxyServices;
import io.sluice.relay.ProxyStats;
import io.sluice.relay.tls.FileWatch;
import io.sluice.status.ThrottleLedger;
import io.sluice.status.TopicActivity;
import io.sluice.status.TopicMeter;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

/**
 * A running Sluice: the client-facing front ends (Pulsar, Kafka or both), the event loops behind
 * them, the limits store and the proxy-wide services. Wiring only; the protocol work happens in
 * the front ends.
 */
public final class SluiceServer implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(SluiceServer.class);

    /** Idle topics' meters and buckets are forgotten after this long. */
    private static final Duration TOPIC_IDLE_EXPIRY = Duration.ofMinutes(10);

    private final SluiceConfig config;
    private final EventLoopGroup acceptors;
    private final EventLoopGroup workers;
    private final ScheduledExecutorService sampler;
    private final ProxyServices services;
    private final LimitsStore limits;
    private final ClusterMember cluster;
    private final EventLoopLag eventLoopLag = new EventLoopLag();
    private AdmissionSampler admissionSampler;
    private volatile boolean draining;
    private PulsarFrontEnd pulsar;
    private KafkaFrontEnd kafka;
    private final List<FrontEnd> frontEnds = new ArrayList<>();
    private AdminServer admin;
    private SecretFiles secrets;

    private SluiceServer(SluiceConfig config, QuotaEngine quotas, LimitsStore limits, ClusterMember cluster) {
        this.config = config;
        this.limits = limits;
        this.cluster = cluster;
        IoHandlerFactory io = Epoll.isAvailable() ? EpollIoHandler.newFactory() : NioIoHandler.newFactory();
        this.acceptors = new MultiThreadIoEventLoopGroup(1, io);
        this.workers = new MultiThreadIoEventLoopGroup(io);
        LatencyWindow upstreamLatency = new LatencyWindow();
        UpstreamConnectFailures connectFailures = new UpstreamConnectFailures();
        AdmissionController admission = new AdmissionController(
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
                        upstreamLatency,
                        Signal.UPSTREAM_CONNECT_FAILURES,
                        connectFailures));
        this.services = new ProxyServices(
                quotas,
                new TopicActivity(TOPIC_IDLE_EXPIRY),
                new ThrottleLedger(Clock.systemUTC()),
                new ProxyStats("pulsar"),
                admission,
                upstreamLatency,
                connectFailures);
        this.sampler = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "sluice-sampler");
            t.setDaemon(true);
            return t;
        });
    }

    static ScopeCatalogue scopeCatalogue() {
        return ScopeCatalogue.of(PulsarScopes.DECLARED, KafkaScopes.DECLARED);
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
        QuotaEngine quotas = new QuotaEngine(LimitsDocument.empty(), System::nanoTime, TOPIC_IDLE_EXPIRY);
        ClusterMember cluster = ClusterMember.of(config.cluster());
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
        SluiceServer server = new SluiceServer(config, quotas, limits, cluster);
        try {
            server.bind();
        } catch (InterruptedException | IOException | RuntimeException e) {
            server.close();
            throw e;
        }
        return server;
    }

    private void bind() throws InterruptedException, IOException {
        secrets = SecretFiles.open(config, services.stats(), FileWatch.DEFAULT_INTERVAL);
        boolean epoll = Epoll.isAvailable();
        Class<? extends ServerChannel> serverType =
                epoll ? EpollServerSocketChannel.class : NioServerSocketChannel.class;
        Class<? extends SocketChannel> socketType = epoll ? EpollSocketChannel.class : NioSocketChannel.class;
        if (config.upstream() != null) {
            pulsar = new PulsarFrontEnd(config, services, acceptors, workers, serverType, socketType, secrets);
            frontEnds.add(pulsar);
        }
        if (config.kafka() != null) {
            kafka = new KafkaFrontEnd(
                    config.kafka(),
                    config.handshakeTimeout(),
                    services.withStats(new ProxyStats("kafka", ApiLabels.byKey())),
                    acceptors,
                    workers,
                    serverType,
                    socketType,
                    secrets.portTls(),
                    secrets.kafkaUpstreamTls(),
                    secrets.kafkaMetadataSockets());
            frontEnds.add(kafka);
        }
        for (FrontEnd frontEnd : frontEnds) {
            frontEnd.start();
        }
        probeEventLoops();
        admissionSampler = AdmissionSampler.start(services.admission());
        sampler.scheduleAtFixedRate(services.topics()::sample, 1, 1, TimeUnit.SECONDS);
        sampler.scheduleWithFixedDelay(() -> frontEnds.forEach(FrontEnd::checkUpstream), 2, 2, TimeUnit.SECONDS);
        if (!limits.isShared()) {
            LimitsFileWatch limitsFileWatch = new LimitsFileWatch(limits);
            sampler.scheduleWithFixedDelay(limitsFileWatch::check, 1, 1, TimeUnit.SECONDS);
        }
        if (cluster != null) {
            cluster.start(services.quotas(), limits);
        }
        admin = AdminServer.builder()
                .bind(config.admin().host(), config.admin().port())
                .adminToken(secrets.adminToken())
                .tls(secrets.adminTls())
                .limits(limits)
                .throttleLedger(services.throttles())
                .topicActivity(services.topics())
                .proxyStats(frontEnds.stream().map(FrontEnd::stats).toArray(ProxyStats[]::new))
                .ready(this::isReady)
                .metricsMaxTopics(config.metricsMaxTopics())
                .idleTimeout(config.adminIdleTimeout())
                .admission(services.admission())
                .cluster(cluster == null ? ClusterStatus::standalone : cluster.status())
                .build();
        admin.start();
        log.info(
                "Sluice ready: {}, admin on {}:{}, limits from {}{}",
                frontEnds.stream().map(FrontEnd::describe).collect(Collectors.joining(", ")),
                admin.address().getHostString(),
                admin.port(),
                limits.isShared() ? "the cluster store" : limits.file(),
                cluster == null ? "" : ", " + cluster.describe());
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
        return !draining && !frontEnds.isEmpty() && frontEnds.stream().allMatch(FrontEnd::isReady);
    }

    /** The admin API's port (useful when started on port 0). */
    public int adminPort() {
        return admin.port();
    }

    /** The Pulsar port clients connect to (useful when started on port 0). */
    public int proxyPort() {
        return pulsar.port();
    }

    /** The Kafka bootstrap port clients connect to (useful when started on port 0). */
    public int kafkaPort() {
        return kafka.port();
    }

    /** The Pulsar front end's connection counters. */
    public ProxyStats stats() {
        return services.stats();
    }

    /** The Kafka front end's connection counters. */
    public ProxyStats kafkaStats() {
        return kafka.stats();
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

    /**
     * The SIGTERM path: stops accepting, asks every connection to drain (no new commands; held
     * sends go on to the broker and their receipts back to the client), waits up to the drain
     * timeout for them to close, then closes the rest. Clients reconnect elsewhere and resend only
     * what the broker never acknowledged.
     */
    public void drainAndClose() {
        draining = true;
        frontEnds.forEach(FrontEnd::drain);
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
        return frontEnds.stream().mapToInt(FrontEnd::openConnections).sum();
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
        frontEnds.forEach(FrontEnd::close);
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
        acceptors.shutdownGracefully(0, 2, TimeUnit.SECONDS).syncUninterruptibly();
        workers.shutdownGracefully(0, 2, TimeUnit.SECONDS).syncUninterruptibly();
    }
}
