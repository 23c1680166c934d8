package io.sluice.admin;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.group.ChannelGroup;
import io.netty.channel.group.DefaultChannelGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.util.concurrent.DefaultThreadFactory;
import io.netty.util.concurrent.GlobalEventExecutor;
import io.sluice.adaptive.AdaptiveScope;
import io.sluice.admin.audit.AuditTrail;
import io.sluice.admin.http.AdminToken;
import io.sluice.admin.http.RouteTable;
import io.sluice.admin.http.Router;
import io.sluice.admission.AdmissionController;
import io.sluice.cluster.ClusterStatus;
import io.sluice.limits.LimitsStore;
import io.sluice.relay.IncompleteFrames;
import io.sluice.relay.ProxyStats;
import io.sluice.relay.tls.ReloadingSslContext;
import io.sluice.status.ThrottleLedger;
import io.sluice.status.TopicActivity;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * The admin HTTP server (docs/REFERENCE.md, "Admin REST API"): the limits API, live status, admission control (when
 * the proxy has it), {@code /metrics}, {@code /healthz} and {@code /readyz}, on Netty's HTTP codec.
 *
 * <p>It runs on threads of its own and never on the proxy's event loops: one I/O event loop, and
 * two threads for the route handlers, because a limits change waits for an fsync and must stall
 * neither Pulsar traffic nor the probes on other admin connections. All threads are daemons;
 * {@link #close()} stops them.
 *
 * <p>No client can starve it (docs/OPERATIONS.md, "The admin port"): each connection is read one
 * request at a time, and not while its answer is owed; the token is checked on a request's head;
 * the handlers' queue is bounded ({@link #HANDLER_QUEUE}, then 503); probes are answered on the
 * event loop ahead of that queue; and past {@link Builder#maxConnections} connections a new one
 * may only ask a probe.
 *
 * <pre>{@code
 * AdminServer admin = AdminServer.builder()
 *         .bind("0.0.0.0", 8080)
 *         .adminToken(token)              // optional; an AdminToken read from a file, or a String
 *         .tls(serverTls)                 // optional: HTTPS
 *         .limits(store).throttleLedger(ledger).topicActivity(activity).proxyStats(stats)
 *         .admission(controller)          // optional
 *         .cluster(sync::status)          // optional
 *         .adaptive(rates::status)        // optional
 *         .ready(() -> proxyListening && upstreamReachable)
 *         .metricsMaxTopics(1000)
 *         .idleTimeout(Duration.ofSeconds(30))  // optional
 *         .build();
 * admin.start();
 * }</pre>
 */
public final class AdminServer implements AutoCloseable {

    /** Larger request bodies are answered 413. */
    public static final int MAX_BODY_BYTES = 1024 * 1024;

    /**
     * How long a connection may take to deliver a complete request, after opening or after its
     * previous answer, unless the builder says otherwise. Far more than any real client needs (a
     * probe or a curl sends its request at once), small enough that slow or idle connections cannot
     * pile up.
     */
    public static final Duration DEFAULT_IDLE_TIMEOUT = Duration.ofSeconds(30);

    /** Admin connections that may use the whole API at once unless the builder says otherwise. */
    public static final int DEFAULT_MAX_CONNECTIONS = 64;

    /**
     * API requests that may wait for a handler thread; past them a request is answered 503 at once.
     * With one request at a time per connection the queue only fills when most connections ask at
     * the same moment, as a flood does.
     */
    public static final int HANDLER_QUEUE = 32;

    private static final Logger log = LoggerFactory.getLogger(AdminServer.class);
    private static final int HANDLER_THREADS = 2;
    private static final int SEND_BUFFER_BYTES = 64 * 1024;
    private static final long STOP_TIMEOUT_MILLIS = 2000;

    private final String host;
    private final int port;
    private final Duration idleTimeout;
    private final int maxConnections;
    private final RouteTable routes;
    private final AdminToken token;
    private final AdminToken readToken;
    private final ReloadingSslContext tls;
    private EventLoopGroup ioLoop;
    private ExecutorService handlers;
    private ChannelGroup connections;
    private Channel serverChannel;

    private AdminServer(Builder builder) {
        this.host = builder.host;
        this.port = builder.port;
        this.idleTimeout = builder.idleTimeout;
        this.maxConnections = builder.maxConnections;
        this.token = builder.adminToken;
        this.readToken = builder.adminToken == null ? null : builder.readToken;
        this.tls = builder.tls;
        this.routes = AdminRoutes.table(
                builder.limits,
                builder.throttleLedger,
                builder.topicActivity,
                builder.proxyStats,
                builder.tlsReloadFailures,
                builder.admission,
                builder.ready,
                builder.metricsMaxTopics,
                builder.metricsMaxIdentities,
                builder.cluster,
                builder.adaptive,
                builder.incompleteFrames,
                builder.logEventsDropped,
                new AuditTrail(Clock.systemUTC(), builder.cluster));
    }

    public static Builder builder() {
        return new Builder();
    }

    /**
     * Binds the port and returns once the server accepts connections.
     *
     * @throws IOException when the address cannot be bound
     * @throws IllegalStateException when already started
     */
    public synchronized void start() throws IOException {
        if (ioLoop != null) {
            throw new IllegalStateException("the admin server is already started");
        }
        ioLoop = new MultiThreadIoEventLoopGroup(
                1, new DefaultThreadFactory("sluice-admin-io", true), NioIoHandler.newFactory());
        handlers = new ThreadPoolExecutor(
                HANDLER_THREADS,
                HANDLER_THREADS,
                0,
                TimeUnit.MILLISECONDS,
                new ArrayBlockingQueue<>(HANDLER_QUEUE),
                new DefaultThreadFactory("sluice-admin", true));
        connections = new DefaultChannelGroup("sluice-admin-connections", GlobalEventExecutor.INSTANCE);
        Router router = new Router(routes, handlers);
        ChannelFuture bind = new ServerBootstrap()
                .group(ioLoop)
                .channel(NioServerSocketChannel.class)
                .option(ChannelOption.SO_REUSEADDR, true)
                .childOption(ChannelOption.AUTO_READ, false)
                // A client that does not read its answers stops being answered after a few, not
                // after the megabytes a kernel's grown send buffer would take.
                .childOption(ChannelOption.SO_SNDBUF, SEND_BUFFER_BYTES)
                .childHandler(new AdminChannelInitializer(
                        connections,
                        MAX_BODY_BYTES,
                        idleTimeout,
                        maxConnections,
                        token,
                        readToken,
                        routes,
                        router,
                        tls))
                .bind(host, port)
                .awaitUninterruptibly();
        if (!bind.isSuccess()) {
            close();
            throw new IOException(
                    "cannot listen for the admin API on " + host + ":" + port + ": "
                            + bind.cause().getMessage(),
                    bind.cause());
        }
        serverChannel = bind.channel();
        log.info(
                "Admin API on {}{}{}",
                serverChannel.localAddress(),
                tls == null ? "" : " (HTTPS)",
                token == null ? " (no admin token)" : readToken == null ? "" : " (with a read-only token)");
    }

    /** The address the server listens on; with port 0 the port chosen by the system. */
    public synchronized InetSocketAddress address() {
        if (serverChannel == null) {
            throw new IllegalStateException("the admin server is not started");
        }
        return (InetSocketAddress) serverChannel.localAddress();
    }

    /** The port the server listens on; see {@link #address()}. */
    public int port() {
        return address().getPort();
    }

    /** The routes this server answers, for tests that check the OpenAPI document against them. */
    RouteTable routes() {
        return routes;
    }

    /**
     * Stops listening, closes every admin connection, lets running handlers finish (a limits
     * change in progress is completed, not torn) and stops the server's threads. Idempotent.
     */
    @Override
    public synchronized void close() {
        if (serverChannel != null) {
            serverChannel.close().awaitUninterruptibly();
            serverChannel = null;
        }
        if (ioLoop == null) {
            return;
        }
        connections.close().awaitUninterruptibly();
        handlers.shutdown();
        try {
            if (!handlers.awaitTermination(STOP_TIMEOUT_MILLIS, TimeUnit.MILLISECONDS)) {
                log.warn("Admin handlers still running after {} ms; stopping anyway", STOP_TIMEOUT_MILLIS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        ioLoop.shutdownGracefully(0, STOP_TIMEOUT_MILLIS, TimeUnit.MILLISECONDS).awaitUninterruptibly();
        ioLoop = null;
        handlers = null;
        connections = null;
    }

    /** Settings and sources of an {@link AdminServer}; every source but admission control is required. */
    public static final class Builder {

        private String host = "0.0.0.0";
        private int port = 8080;
        private AdminToken adminToken;
        private AdminToken readToken;
        private int maxConnections = DEFAULT_MAX_CONNECTIONS;
        private ReloadingSslContext tls;
        private LimitsStore limits;
        private ThrottleLedger throttleLedger;
        private TopicActivity topicActivity;
        private List<ProxyStats> proxyStats;
        private LongSupplier tlsReloadFailures = () -> 0;
        private AdmissionController admission;
        private BooleanSupplier ready;
        private int metricsMaxTopics = 1000;
        private int metricsMaxIdentities = 100;
        private Duration idleTimeout = DEFAULT_IDLE_TIMEOUT;
        private Supplier<ClusterStatus> cluster = ClusterStatus::standalone;
        private Supplier<List<AdaptiveScope>> adaptive = List::of;
        private IncompleteFrames incompleteFrames;
        private LongSupplier logEventsDropped;

        private Builder() {}

        /**
         * The adaptive limits' state, for {@code GET /api/v1/adaptive} and the
         * {@code sluice_adaptive_*} metrics; by default there are none.
         */
        public Builder adaptive(Supplier<List<AdaptiveScope>> status) {
            this.adaptive = Objects.requireNonNull(status, "status");
            return this;
        }

        /**
         * The bytes of incomplete client frames, for the {@code sluice_buffered_bytes*} metrics;
         * {@code null} (the default) for none.
         */
        public Builder incompleteFrames(IncompleteFrames frames) {
            this.incompleteFrames = frames;
            return this;
        }

        /**
         * Log events the logging backend dropped, for {@code sluice_log_events_dropped_total};
         * {@code null} (the default) for a backend that drops none.
         */
        public Builder logEventsDropped(LongSupplier dropped) {
            this.logEventsDropped = dropped;
            return this;
        }

        /**
         * How this Sluice shares limits with others, for {@code GET /api/v1/cluster} and the
         * {@code sluice_cluster_*} metrics; by default it shares none ({@code standalone}).
         */
        public Builder cluster(Supplier<ClusterStatus> status) {
            this.cluster = Objects.requireNonNull(status, "status");
            return this;
        }

        /** Where to listen; port 0 picks a free port (see {@link AdminServer#port()}). Default {@code 0.0.0.0:8080}. */
        public Builder bind(String host, int port) {
            if (port < 0 || port > 65535) {
                throw new IllegalArgumentException("port must be 0 to 65535, got " + port);
            }
            this.host = Objects.requireNonNull(host, "host");
            this.port = port;
            return this;
        }

        /** The bearer token every {@code /api/v1/**} request must carry; {@code null} (the default) for none. */
        public Builder adminToken(String token) {
            this.adminToken = token == null ? null : AdminToken.of(token);
            return this;
        }

        /** As {@link #adminToken(String)}, for a token read from a file and re-read when it changes. */
        public Builder adminToken(AdminToken token) {
            this.adminToken = token;
            return this;
        }

        /**
         * A second token that may only {@code GET} under {@code /api/v1} (403 for anything else);
         * {@code null} (the default) for none. Without an admin token it has no effect.
         */
        public Builder readToken(AdminToken token) {
            this.readToken = token;
            return this;
        }

        /**
         * Connections that may use the whole API at once (default {@link #DEFAULT_MAX_CONNECTIONS});
         * past them a new connection may ask one probe and is then closed.
         */
        public Builder maxConnections(int max) {
            if (max <= 0) {
                throw new IllegalArgumentException("maxConnections must be positive, got " + max);
            }
            this.maxConnections = max;
            return this;
        }

        /** Serve HTTPS with this context (its certificate rotates with its files); {@code null} (the default) for HTTP. */
        public Builder tls(ReloadingSslContext context) {
            this.tls = context;
            return this;
        }

        /** Where limits are read, changed and persisted. */
        public Builder limits(LimitsStore store) {
            this.limits = store;
            return this;
        }

        /** Who is throttled, throttle counts and delays. */
        public Builder throttleLedger(ThrottleLedger ledger) {
            this.throttleLedger = ledger;
            return this;
        }

        /** Per-topic traffic. */
        public Builder topicActivity(TopicActivity activity) {
            this.topicActivity = activity;
            return this;
        }

        /** The connection counters of each front end that runs. */
        public Builder proxyStats(ProxyStats... stats) {
            this.proxyStats = List.of(stats);
            return this;
        }

        /**
         * The process's failed reloads of TLS files (the front ends' and the admin port's, each
         * counted once), for {@code sluice_tls_reload_failures_total}; by default none.
         */
        public Builder tlsReloadFailures(LongSupplier failures) {
            this.tlsReloadFailures = Objects.requireNonNull(failures, "failures");
            return this;
        }

        /**
         * Admission control, for {@code GET PUT /api/v1/admission} and the {@code sluice_admission_*}
         * metrics; {@code null} (the default) when the proxy runs without it, and then
         * {@code /api/v1/admission} answers 404.
         */
        public Builder admission(AdmissionController controller) {
            this.admission = controller;
            return this;
        }

        /** What {@code /readyz} reports: true when the proxy can take clients. */
        public Builder ready(BooleanSupplier ready) {
            this.ready = ready;
            return this;
        }

        /** How many topics without a limit get their own {@code topic} label (default 1000); see docs/REFERENCE.md, "Metrics". */
        public Builder metricsMaxTopics(int max) {
            if (max < 0) {
                throw new IllegalArgumentException("metricsMaxTopics must not be negative, got " + max);
            }
            this.metricsMaxTopics = max;
            return this;
        }

        /**
         * How many principals and roles keep their name in {@code sluice_throttle_events_total}
         * (default 100), the most often throttled first; see docs/REFERENCE.md, "Metrics".
         */
        public Builder metricsMaxIdentities(int max) {
            if (max < 0) {
                throw new IllegalArgumentException("metricsMaxIdentities must not be negative, got " + max);
            }
            this.metricsMaxIdentities = max;
            return this;
        }

        /**
         * How long a connection may take to deliver a complete request after opening or after its
         * previous answer before it is closed, however steadily its bytes trickle in; default
         * {@link #DEFAULT_IDLE_TIMEOUT}.
         */
        public Builder idleTimeout(Duration timeout) {
            if (timeout.isNegative() || timeout.isZero()) {
                throw new IllegalArgumentException("idleTimeout must be positive, got " + timeout);
            }
            this.idleTimeout = timeout;
            return this;
        }

        /** @throws NullPointerException when a source is missing */
        public AdminServer build() {
            Objects.requireNonNull(limits, "limits");
            Objects.requireNonNull(throttleLedger, "throttleLedger");
            Objects.requireNonNull(topicActivity, "topicActivity");
            Objects.requireNonNull(proxyStats, "proxyStats");
            Objects.requireNonNull(ready, "ready");
            return new AdminServer(this);
        }
    }
}
