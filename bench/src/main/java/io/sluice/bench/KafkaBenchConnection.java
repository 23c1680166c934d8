package io.sluice.bench;

import io.netty.buffer.ByteBuf;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.resolver.DefaultAddressResolverGroup;
import io.netty.util.ReferenceCountUtil;
import io.netty.util.concurrent.ImmediateEventExecutor;
import io.sluice.admission.AdmissionController;
import io.sluice.admission.AdmissionSettings;
import io.sluice.admission.LatencyWindow;
import io.sluice.admission.UpstreamConnectFailures;
import io.sluice.kafka.codec.ApiLabels;
import io.sluice.kafka.connection.KafkaChannelInitializer;
import io.sluice.kafka.connection.KafkaSettings;
import io.sluice.kafka.connection.UpstreamRoute;
import io.sluice.kafka.routing.AdvertisedNodes;
import io.sluice.kafka.routing.BrokerEndpoint;
import io.sluice.kafka.routing.TopicIdLookup;
import io.sluice.kafka.routing.TopicIds;
import io.sluice.kafka.routing.UpstreamNodes;
import io.sluice.kafka.scopes.KafkaScopes;
import io.sluice.kafka.testing.KafkaFrames;
import io.sluice.limits.LimitsJson;
import io.sluice.limits.ScopeCatalogue;
import io.sluice.quota.NanoClock;
import io.sluice.quota.QuotaEngine;
import io.sluice.relay.IncompleteFrames;
import io.sluice.relay.ProxyServices;
import io.sluice.relay.ProxyStats;
import io.sluice.status.ThrottleLedger;
import io.sluice.status.TopicActivity;
import io.sluice.testing.EmbeddedSocketChannel;
import io.sluice.testing.ManualEventLoop;
import org.apache.kafka.common.message.SaslAuthenticateRequestData;
import org.apache.kafka.common.message.SaslAuthenticateResponseData;
import org.apache.kafka.common.message.SaslHandshakeRequestData;
import org.apache.kafka.common.message.SaslHandshakeResponseData;

import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * One Kafka client connection through Sluice in memory, for the path benchmarks: the client
 * pipeline of {@link KafkaChannelInitializer} on a manual event loop, its upstream an in-memory
 * channel, authenticated with SASL/PLAIN as {@code User:bench} as production clients are. Sockets
 * are left out, so what a benchmark measures is Sluice's own CPU and allocation.
 */
final class KafkaBenchConnection implements AutoCloseable {

    private static final short SASL_AUTHENTICATE_VERSION = 2;

    private final ManualEventLoop loop = new ManualEventLoop();
    private final TopicIds topicIds = new TopicIds(100);
    private final EmbeddedSocketChannel client;
    private EmbeddedChannel upstream;

    /** @param limits the limits document in force, as JSON */
    KafkaBenchConnection(String limits) {
        ProxyServices services = new ProxyServices(
                new QuotaEngine(
                        LimitsJson.parseDocument(
                                limits.getBytes(StandardCharsets.UTF_8), ScopeCatalogue.of(KafkaScopes.DECLARED)),
                        NanoClock.SYSTEM),
                new TopicActivity(Duration.ofMinutes(1)),
                new ThrottleLedger(Clock.systemUTC()),
                new ProxyStats("kafka", ApiLabels.byKey()),
                new AdmissionController(AdmissionSettings.DEFAULTS, Map.of()),
                new LatencyWindow(),
                new UpstreamConnectFailures(),
                new IncompleteFrames(1L << 30, IncompleteFrames.DEFAULT_FRAME_TIMEOUT),
                DefaultAddressResolverGroup.INSTANCE);
        KafkaSettings settings = new KafkaSettings(
                new AdvertisedNodes("sluice.example", 19_000, new UpstreamNodes(node -> {})),
                new TopicIdLookup(topicIds, ids -> Map.of(), ImmediateEventExecutor.INSTANCE),
                1_000,
                EmbeddedSocketChannel.class);
        client = new EmbeddedSocketChannel();
        client.pipeline()
                .addLast(new KafkaChannelInitializer(
                        settings, services, UpstreamRoute.bootstrap(List.of(new BrokerEndpoint("127.0.0.1", 9092)))));
        loop.register(client);
        loop.runTasks();
        EmbeddedSocketChannel.takeBootstrapped();

        exchange(
                KafkaFrames.request(new SaslHandshakeRequestData().setMechanism("PLAIN"), (short) 1, 1, "bench"),
                KafkaFrames.response(new SaslHandshakeResponseData().setMechanisms(List.of("PLAIN")), (short) 1, 1),
                "SaslHandshake");
        exchange(
                KafkaFrames.request(
                        new SaslAuthenticateRequestData()
                                .setAuthBytes("\0bench\0bench-secret".getBytes(StandardCharsets.UTF_8)),
                        SASL_AUTHENTICATE_VERSION,
                        2,
                        "bench"),
                KafkaFrames.response(new SaslAuthenticateResponseData(), SASL_AUTHENTICATE_VERSION, 2),
                "SaslAuthenticate");
    }

    /** Where the connection looks up the names of topics its client names by id. */
    TopicIds topicIds() {
        return topicIds;
    }

    /**
     * The client sends {@code frame}, which Sluice forwards, and the broker answers {@code answer},
     * which Sluice relays; takes ownership of both.
     */
    void exchange(ByteBuf frame, ByteBuf answer, String what) {
        client.writeInbound(frame);
        loop.runTasks();
        if (upstream == null) {
            List<EmbeddedSocketChannel> upstreams = EmbeddedSocketChannel.takeBootstrapped();
            if (upstreams.size() != 1) {
                ReferenceCountUtil.release(answer);
                throw new IllegalStateException("expected one upstream channel, got " + upstreams.size());
            }
            upstream = upstreams.get(0);
            loop.runTasks();
        }
        ProxyPathBenchmark.expect(ProxyPathBenchmark.drain(upstream), 1, what + " forwarded");
        upstream.writeInbound(answer);
        loop.runTasks();
        ProxyPathBenchmark.expect(ProxyPathBenchmark.drain(client), 1, what + " answered");
    }

    /**
     * One round trip of the benchmark: {@code request}'s bytes as one read of the client's socket,
     * forwarded upstream, then {@code response}'s as one read of the broker's, relayed to the client.
     * Both buffers stay the caller's. Returns the frames moved.
     */
    int roundTrip(ByteBuf request, ByteBuf response, String what) {
        client.writeInbound(ProxyPathBenchmark.read(client, request));
        loop.runTasks();
        int forwarded = ProxyPathBenchmark.drain(upstream);
        upstream.writeInbound(ProxyPathBenchmark.read(upstream, response));
        loop.runTasks();
        int answered = ProxyPathBenchmark.drain(client);
        if (forwarded == 0 || answered == 0) {
            throw new IllegalStateException("the " + what + " did not make its round trip");
        }
        return forwarded + answered;
    }

    @Override
    public void close() {
        client.close();
        loop.runTasks();
        client.finishAndReleaseAll();
        upstream.finishAndReleaseAll();
    }
}
