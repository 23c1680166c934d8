package io.sluice.bench;

import com.google.protobuf.ByteString;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.resolver.DefaultAddressResolverGroup;
import io.netty.util.ReferenceCountUtil;
import io.sluice.admission.AdmissionController;
import io.sluice.admission.AdmissionSettings;
import io.sluice.admission.LatencyWindow;
import io.sluice.admission.UpstreamConnectFailures;
import io.sluice.limits.LimitsJson;
import io.sluice.limits.ScopeCatalogue;
import io.sluice.pulsar.codec.FrameWriter;
import io.sluice.pulsar.codec.proto.BaseCommand;
import io.sluice.pulsar.codec.proto.CommandConnect;
import io.sluice.pulsar.codec.proto.CommandConnected;
import io.sluice.pulsar.codec.proto.CommandProducer;
import io.sluice.pulsar.codec.proto.CommandProducerSuccess;
import io.sluice.pulsar.codec.proto.CommandSendReceipt;
import io.sluice.pulsar.connection.PulsarChannelInitializer;
import io.sluice.pulsar.connection.PulsarSettings;
import io.sluice.pulsar.lookup.BrokerAllowList;
import io.sluice.pulsar.lookup.LookupMode;
import io.sluice.pulsar.scopes.PulsarScopes;
import io.sluice.quota.NanoClock;
import io.sluice.quota.QuotaEngine;
import io.sluice.relay.IncompleteFrames;
import io.sluice.relay.ProxyServices;
import io.sluice.relay.ProxyStats;
import io.sluice.status.ThrottleLedger;
import io.sluice.status.TopicActivity;
import io.sluice.testing.EmbeddedSocketChannel;
import io.sluice.testing.ManualEventLoop;
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
import java.util.regex.Pattern;

/**
 * The proxy's whole per-message path in memory: a read of {@code sendsPerRead} SEND frames goes
 * through the client pipeline of {@link PulsarChannelInitializer} (frame decoder, client handler,
 * publish gate, the write to the upstream channel), and a read of as many SEND_RECEIPTs comes back
 * through the broker pipeline to the client. One operation is that round; divide by
 * {@code sendsPerRead} for the cost per message. Sockets are left out (in-memory channels on a
 * manual event loop), so this is the proxy's own CPU per message, which the side-by-side suite can
 * only see mixed with the kernel's and the JVM's.
 *
 * <p>Run: {@code java -jar bench/target/benchmarks.jar ProxyPath -f 1 -wi 3 -w 2s -i 5 -r 2s}
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class ProxyPathBenchmark {

    private static final String TOPIC = "persistent://public/default/bench";
    private static final long PRODUCER_ID = 7;

    /** How many SENDs arrive in one read (1: a synchronous client; 100: a client with many in flight). */
    @Param({"1", "100"})
    int sendsPerRead;

    /**
     * {@code none}: no limit applies; {@code topic}: a topic limit that never throttles is checked
     * for every send; {@code production}: limits that never throttle on the topic, its namespace and
     * tenant, every role ({@code "*"}) and the proxy, for a connection authenticated as a role.
     */
    @Param({"none", "topic", "production"})
    String limit;

    private final ManualEventLoop loop = new ManualEventLoop();
    private EmbeddedSocketChannel client;
    private EmbeddedChannel upstream;
    private ByteBuf sends;
    private ByteBuf receipts;

    @Setup(Level.Trial)
    public void connectAndCreateProducer() throws Exception {
        String never = "{\"publish\": {\"messagesPerSecond\": 1e12, \"bytesPerSecond\": 1e12}}";
        String limits = switch (limit) {
            case "topic" -> "{\"topics\": {\"" + TOPIC + "\": " + never + "}}";
            case "production" ->
                "{\"topics\": {\"" + TOPIC + "\": " + never + "}, "
                        + "\"namespaces\": {\"public/default\": " + never + "}, "
                        + "\"tenants\": {\"public\": " + never + "}, "
                        + "\"roles\": {\"*\": " + never + "}, \"proxy\": " + never + "}";
            default -> "{}";
        };
        ProxyServices services = new ProxyServices(
                new QuotaEngine(
                        LimitsJson.parseDocument(
                                limits.getBytes(StandardCharsets.UTF_8), ScopeCatalogue.of(PulsarScopes.DECLARED)),
                        NanoClock.SYSTEM),
                new TopicActivity(Duration.ofMinutes(1)),
                new ThrottleLedger(Clock.systemUTC()),
                new ProxyStats("pulsar"),
                new AdmissionController(AdmissionSettings.DEFAULTS, Map.of()),
                new LatencyWindow(),
                new UpstreamConnectFailures(),
                new IncompleteFrames(1L << 30, IncompleteFrames.DEFAULT_FRAME_TIMEOUT),
                DefaultAddressResolverGroup.INSTANCE);
        PulsarSettings settings = new PulsarSettings(
                new BrokerAllowList.BrokerAddress("127.0.0.1", 6650),
                new BrokerAllowList(Pattern.compile(".*")),
                LookupMode.REWRITE,
                1_000,
                EmbeddedSocketChannel.class);
        client = new EmbeddedSocketChannel();
        client.pipeline().addLast(new PulsarChannelInitializer(settings, services));
        loop.register(client);
        loop.runTasks();
        EmbeddedSocketChannel.takeBootstrapped();

        client.writeInbound(FrameWriter.encode(
                client.alloc(),
                BaseCommand.newBuilder()
                        .setType(BaseCommand.Type.CONNECT)
                        .setConnect(CommandConnect.newBuilder()
                                .setClientVersion("bench")
                                .setProtocolVersion(21)
                                .setAuthMethodName("basic")
                                .setAuthData(ByteString.copyFromUtf8("bench:bench-secret")))
                        .build()));
        loop.runTasks();
        List<EmbeddedSocketChannel> upstreams = EmbeddedSocketChannel.takeBootstrapped();
        if (upstreams.size() != 1) {
            throw new IllegalStateException("expected one upstream channel, got " + upstreams.size());
        }
        upstream = upstreams.get(0);
        expect(drain(upstream), 1, "CONNECT forwarded");
        upstream.writeInbound(FrameWriter.encode(
                client.alloc(),
                BaseCommand.newBuilder()
                        .setType(BaseCommand.Type.CONNECTED)
                        .setConnected(CommandConnected.newBuilder()
                                .setServerVersion("bench")
                                .setProtocolVersion(21)
                                .setMaxMessageSize(5 * 1024 * 1024))
                        .build()));
        expect(drain(client), 1, "CONNECTED relayed");

        client.writeInbound(FrameWriter.encode(
                client.alloc(),
                BaseCommand.newBuilder()
                        .setType(BaseCommand.Type.PRODUCER)
                        .setProducer(CommandProducer.newBuilder()
                                .setTopic(TOPIC)
                                .setProducerId(PRODUCER_ID)
                                .setRequestId(1))
                        .build()));
        expect(drain(upstream), 1, "PRODUCER forwarded");
        upstream.writeInbound(FrameWriter.encode(
                client.alloc(),
                BaseCommand.newBuilder()
                        .setType(BaseCommand.Type.PRODUCER_SUCCESS)
                        .setProducerSuccess(CommandProducerSuccess.newBuilder()
                                .setRequestId(1)
                                .setProducerName("p"))
                        .build()));
        expect(drain(client), 1, "PRODUCER_SUCCESS relayed");

        sends = Unpooled.directBuffer();
        receipts = Unpooled.directBuffer();
        ByteBuf send = SendDecodeBenchmark.sendFrame(1024);
        ByteBuf receipt = FrameWriter.encode(
                client.alloc(),
                BaseCommand.newBuilder()
                        .setType(BaseCommand.Type.SEND_RECEIPT)
                        .setSendReceipt(CommandSendReceipt.newBuilder()
                                .setProducerId(PRODUCER_ID)
                                .setSequenceId(123_456))
                        .build());
        for (int i = 0; i < sendsPerRead; i++) {
            sends.writeBytes(send, send.readerIndex(), send.readableBytes());
            receipts.writeBytes(receipt, receipt.readerIndex(), receipt.readableBytes());
        }
        send.release();
        receipt.release();
    }

    @TearDown(Level.Trial)
    public void close() {
        sends.release();
        receipts.release();
        client.close();
        loop.runTasks();
        client.finishAndReleaseAll();
        upstream.finishAndReleaseAll();
    }

    /** SENDs in, forwarded upstream; receipts back, forwarded to the client. Returns the frames moved. */
    @Benchmark
    public int sendsAndReceipts() {
        client.writeInbound(read(client, sends));
        int forwarded = drain(upstream);
        upstream.writeInbound(read(upstream, receipts));
        int answered = drain(client);
        if (answered == 0) {
            throw new IllegalStateException("no receipt reached the client");
        }
        return forwarded + answered;
    }

    /** {@code bytes} as a socket read into {@code channel} brings them: copied into a buffer of its allocator. */
    static ByteBuf read(EmbeddedChannel channel, ByteBuf bytes) {
        return channel.alloc()
                .directBuffer(bytes.readableBytes())
                .writeBytes(bytes, bytes.readerIndex(), bytes.readableBytes());
    }

    /** Reads and releases what {@code channel} wrote, as its socket would; returns how many buffers. */
    static int drain(EmbeddedChannel channel) {
        int count = 0;
        Object out;
        while ((out = channel.readOutbound()) != null) {
            count++;
            ReferenceCountUtil.release(out);
        }
        return count;
    }

    static void expect(int actual, int expected, String what) {
        if (actual != expected) {
            throw new IllegalStateException(what + ": expected " + expected + " frame(s), got " + actual);
        }
    }
}
