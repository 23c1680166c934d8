package io.sluice.kafka.connection;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.UnpooledByteBufAllocator;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.resolver.DefaultAddressResolverGroup;
import io.netty.util.concurrent.ImmediateEventExecutor;
import io.sluice.admission.AdmissionController;
import io.sluice.admission.AdmissionJson;
import io.sluice.admission.AdmissionSettings;
import io.sluice.admission.LatencyWindow;
import io.sluice.admission.Signal;
import io.sluice.admission.SignalSource;
import io.sluice.admission.UpstreamConnectFailures;
import io.sluice.kafka.codec.ApiLabels;
import io.sluice.kafka.routing.AdvertisedNodes;
import io.sluice.kafka.routing.BrokerEndpoint;
import io.sluice.kafka.routing.TopicIdLookup;
import io.sluice.kafka.routing.TopicIds;
import io.sluice.kafka.routing.UpstreamNodes;
import io.sluice.kafka.scopes.SslPrincipalMapping;
import io.sluice.kafka.testing.KafkaFrames;
import io.sluice.limits.Limit;
import io.sluice.limits.LimitsDocument;
import io.sluice.limits.ScopeRef;
import io.sluice.quota.QuotaEngine;
import io.sluice.relay.IncompleteFrames;
import io.sluice.relay.ProxyServices;
import io.sluice.relay.ProxyStats;
import io.sluice.relay.connection.RefusingSocketChannel;
import io.sluice.relay.tls.ReloadingSslContext;
import io.sluice.status.ThrottleLedger;
import io.sluice.status.TopicActivity;
import io.sluice.testing.EmbeddedSocketChannel;
import io.sluice.testing.ManualEventLoop;
import org.apache.kafka.common.Uuid;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * One client connection through the Kafka pipeline ({@link KafkaChannelInitializer}) in memory: a
 * client socket and the upstream socket the connection opens, both on a {@link ManualEventLoop}
 * whose clock the test moves; an upstream at {@link RefusingSocketChannel#REFUSED_PORT} refuses the
 * connect. The test plays client and broker with frames built by kafka-clients.
 */
final class ConnectionHarness implements AutoCloseable {

    static final String SLUICE_HOST = "sluice.example";
    static final int NODE_PORT_BASE = 19_000;
    static final Duration HANDSHAKE_TIMEOUT = Duration.ofSeconds(5);
    /** The largest request a harness connection takes unless told otherwise. */
    static final int MAX_REQUEST_SIZE = 64 * 1024;
    /** The one bootstrap server of a harness connection unless told otherwise. */
    static final BrokerEndpoint BOOTSTRAP_SERVER = new BrokerEndpoint("127.0.0.1", 9092);

    private static final UpstreamRoute BOOTSTRAP = UpstreamRoute.bootstrap(List.of(BOOTSTRAP_SERVER));

    /** Admission control enforced, its breakers opened by one sample of heap use over half. */
    static final AdmissionSettings ENFORCED_HEAP_HALF = AdmissionJson.parseSettings(("{\"mode\":\"enforced\","
                    + "\"thresholds\":{\"cpu\":null,\"heap\":0.5,\"direct_memory\":null,\"event_loop_lag\":null,"
                    + "\"upstream_connect_failures\":null,\"upstream_latency_p99\":null},\"openAfterBreaches\":1,"
                    + "\"coolDownMillis\":60000}")
            .getBytes(StandardCharsets.UTF_8));

    final UnpooledByteBufAllocator alloc = new UnpooledByteBufAllocator(false);
    final ManualEventLoop loop = new ManualEventLoop();
    final List<Integer> nodesOpened = new ArrayList<>();
    final UpstreamNodes nodes = new UpstreamNodes(nodesOpened::add);
    final ProxyStats stats = new ProxyStats("kafka", ApiLabels.byKey());
    final ProxyServices services;
    final EmbeddedSocketChannel client = new EmbeddedSocketChannel();
    private EmbeddedSocketChannel upstream;
    private int upstreamsOpened;

    /** A connection on the bootstrap port, rewriting broker addresses, admission control as given. */
    ConnectionHarness(AdmissionController admission) {
        this(admission, BOOTSTRAP);
    }

    ConnectionHarness(AdmissionController admission, UpstreamRoute route) {
        this(admission, route, MAX_REQUEST_SIZE, null);
    }

    /** A connection on the bootstrap port taking requests up to {@code maxRequestSize}, admission control off. */
    ConnectionHarness(int maxRequestSize) {
        this(admittingEverything(), BOOTSTRAP, maxRequestSize, null);
    }

    /** A connection going where {@code route} says, speaking {@code upstreamTls} to it, admission control off. */
    ConnectionHarness(UpstreamRoute route, ReloadingSslContext upstreamTls) {
        this(admittingEverything(), route, MAX_REQUEST_SIZE, upstreamTls);
    }

    private ConnectionHarness(
            AdmissionController admission, UpstreamRoute route, int maxRequestSize, ReloadingSslContext upstreamTls) {
        services = new ProxyServices(
                new QuotaEngine(LimitsDocument.empty(), loop::clockNanos),
                new TopicActivity(Duration.ofMinutes(1)),
                new ThrottleLedger(Clock.systemUTC()),
                stats,
                admission,
                new LatencyWindow(),
                new UpstreamConnectFailures(),
                new IncompleteFrames(1L << 30, IncompleteFrames.DEFAULT_FRAME_TIMEOUT),
                DefaultAddressResolverGroup.INSTANCE);
        KafkaSettings settings = new KafkaSettings(
                new AdvertisedNodes(SLUICE_HOST, NODE_PORT_BASE, nodes),
                new TopicIdLookup(new TopicIds(100), ConnectionHarness::clusterNames, ImmediateEventExecutor.INSTANCE),
                1_000,
                RefusingSocketChannel.class,
                HANDSHAKE_TIMEOUT,
                maxRequestSize,
                null,
                upstreamTls,
                KafkaSettings.DEFAULT_MAX_TOPICS_PER_CONNECTION,
                SslPrincipalMapping.byDefault());
        EmbeddedSocketChannel.takeBootstrapped(); // forget the client itself
        client.config().setAllocator(alloc);
        client.pipeline().addLast(new KafkaChannelInitializer(settings, services, route));
        loop.register(client);
        loop.runTasks();
    }

    /** The cluster behind the harness knows every topic id it is asked for, by a name of its own. */
    private static Map<Uuid, String> clusterNames(Collection<Uuid> ids) {
        Map<Uuid, String> names = new HashMap<>();
        ids.forEach(id -> names.put(id, "topic-" + id));
        return names;
    }

    /** A connection with admission control off. */
    ConnectionHarness() {
        this(admittingEverything());
    }

    static AdmissionController admittingEverything() {
        return new AdmissionController(AdmissionSettings.DEFAULTS, Map.of());
    }

    /** Admission control enforced with every breaker open. */
    static AdmissionController refusingEverything() {
        AdmissionController admission =
                new AdmissionController(ENFORCED_HEAP_HALF, Map.<Signal, SignalSource>of(Signal.HEAP, now -> 1.0));
        admission.sample(System.nanoTime());
        return admission;
    }

    /** Sets {@code limit} on {@code scope}, as the admin API would. */
    void limit(ScopeRef scope, Limit limit) {
        services.quotas().update(services.quotas().limits().withLimit(scope, limit));
    }

    /** The client sends {@code frames} in one read; takes ownership. */
    void clientSends(ByteBuf... frames) {
        ByteBuf read = alloc.heapBuffer();
        for (ByteBuf frame : frames) {
            read.writeBytes(frame);
            frame.release();
        }
        client.writeInbound(read);
        settle();
    }

    /** The client sends the raw {@code bytes}. */
    void clientSends(byte[] bytes) {
        client.writeInbound(alloc.heapBuffer().writeBytes(bytes));
        settle();
    }

    /** The broker answers with {@code frames} in one read; takes ownership. */
    void brokerSends(ByteBuf... frames) {
        ByteBuf read = alloc.heapBuffer();
        for (ByteBuf frame : frames) {
            read.writeBytes(frame);
            frame.release();
        }
        upstream().writeInbound(read);
        settle();
    }

    /** Every byte the broker received since the last call. */
    byte[] brokerReceived() {
        return drain(upstream());
    }

    /** Every byte the client received since the last call. */
    byte[] clientReceived() {
        return drain(client);
    }

    /** The upstream socket the connection opened; fails when it has not opened one. */
    EmbeddedSocketChannel upstream() {
        takeUpstreams();
        if (upstream == null) {
            throw new AssertionError("no upstream connection was opened");
        }
        return upstream;
    }

    boolean hasUpstream() {
        takeUpstreams();
        return upstream != null;
    }

    int upstreamsOpened() {
        takeUpstreams();
        return upstreamsOpened;
    }

    void advance(Duration time) {
        loop.advanceTimeBy(time.toNanos(), TimeUnit.NANOSECONDS);
        settle();
    }

    void settle() {
        for (int i = 0; i < 5; i++) {
            loop.runTasks();
        }
    }

    @Override
    public void close() {
        client.close();
        settle();
        client.finishAndReleaseAll();
        if (upstream != null) {
            upstream.finishAndReleaseAll();
        }
        settle();
    }

    static byte[] bytes(ByteBuf... frames) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (ByteBuf frame : frames) {
            out.writeBytes(KafkaFrames.frameBytes(frame));
        }
        return out.toByteArray();
    }

    private void takeUpstreams() {
        for (EmbeddedSocketChannel created : EmbeddedSocketChannel.takeBootstrapped()) {
            upstream = created;
            upstreamsOpened++;
        }
    }

    private static byte[] drain(EmbeddedChannel channel) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteBuf written;
        while ((written = channel.readOutbound()) != null) {
            out.writeBytes(KafkaFrames.frameBytes(written));
            written.release();
        }
        return out.toByteArray();
    }
}
