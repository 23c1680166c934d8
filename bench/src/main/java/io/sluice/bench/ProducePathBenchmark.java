package io.sluice.bench;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
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
import io.sluice.kafka.testing.RecordFrames;
import io.sluice.kafka.testing.RecordFrames.Part;
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
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * A Kafka ProduceRequest's whole path through Sluice in memory: a request carrying one record batch
 * goes through the client pipeline of {@link KafkaChannelInitializer} (frame decoder, client
 * handler, produce gate, the write to the upstream channel), and the broker's ProduceResponse comes
 * back through the upstream pipeline to the client. One operation is that round trip. The
 * connection authenticated with SASL/PLAIN as {@code User:bench} first, as production clients do.
 * Sockets are left out (in-memory channels on a manual event loop), so this is Sluice's own CPU and
 * allocation per request.
 *
 * <p>Run: {@code java -jar bench/target/benchmarks.jar ProducePath -f 1 -wi 3 -w 2s -i 5 -r 2s -prof gc}
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class ProducePathBenchmark {

    private static final String TOPIC = "orders.eu";
    private static final short PRODUCE_VERSION = 11;
    private static final short SASL_AUTHENTICATE_VERSION = 2;
    private static final int CORRELATION_ID = 7;

    /** Records in the request's one batch, of 100 bytes each. */
    @Param({"1", "100"})
    int records;

    /**
     * {@code none}: no limit applies; {@code production}: limits that never throttle on the topic,
     * its prefix, every client id and every principal ({@code "*"}) and the proxy, all checked for
     * every batch.
     */
    @Param({"none", "production"})
    String limit;

    private final ManualEventLoop loop = new ManualEventLoop();
    private EmbeddedSocketChannel client;
    private EmbeddedChannel upstream;
    private ByteBuf request;
    private ByteBuf response;

    @Setup(Level.Trial)
    public void connectAndAuthenticate() {
        String never = "{\"publish\": {\"messagesPerSecond\": 1e12, \"bytesPerSecond\": 1e12}}";
        String limits = limit.equals("production")
                ? "{\"proxy\": " + never + ", \"kafka\": {\"topics\": {\"" + TOPIC + "\": " + never + "}, "
                        + "\"prefixes\": {\"orders.\": " + never + "}, \"clients\": {\"*\": " + never + "}, "
                        + "\"principals\": {\"*\": " + never + "}}}"
                : "{}";
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
        UpstreamNodes nodes = new UpstreamNodes(node -> {});
        KafkaSettings settings = new KafkaSettings(
                new AdvertisedNodes("sluice.example", 19_000, nodes),
                new TopicIdLookup(new TopicIds(100), ids -> Map.of(), ImmediateEventExecutor.INSTANCE),
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

        Part part = new Part(TOPIC, null, 0, RecordFrames.batch(records, 100));
        request = Unpooled.directBuffer();
        response = Unpooled.directBuffer();
        ByteBuf produce = RecordFrames.produceRequest(PRODUCE_VERSION, (short) -1, CORRELATION_ID, "bench-app", part);
        ByteBuf answer = KafkaFrames.response(
                RecordFrames.produceResponse(RecordFrames.produce(PRODUCE_VERSION, (short) -1, part), PRODUCE_VERSION),
                PRODUCE_VERSION,
                CORRELATION_ID);
        request.writeBytes(produce);
        response.writeBytes(answer);
        produce.release();
        answer.release();
    }

    @TearDown(Level.Trial)
    public void close() {
        request.release();
        response.release();
        client.close();
        loop.runTasks();
        client.finishAndReleaseAll();
        upstream.finishAndReleaseAll();
    }

    /** The request in, forwarded upstream; the response back, forwarded to the client. Returns the frames moved. */
    @Benchmark
    public int produceAndResponse() {
        client.writeInbound(ProxyPathBenchmark.read(client, request));
        loop.runTasks();
        int forwarded = ProxyPathBenchmark.drain(upstream);
        upstream.writeInbound(ProxyPathBenchmark.read(upstream, response));
        loop.runTasks();
        int answered = ProxyPathBenchmark.drain(client);
        if (forwarded == 0 || answered == 0) {
            throw new IllegalStateException("the produce did not make its round trip");
        }
        return forwarded + answered;
    }

    /** The client sends {@code frame}, the broker answers {@code answer}; takes ownership of both. */
    private void exchange(ByteBuf frame, ByteBuf answer, String what) {
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
}
