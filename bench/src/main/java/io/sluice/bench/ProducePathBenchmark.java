package io.sluice.bench;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.sluice.kafka.connection.KafkaChannelInitializer;
import io.sluice.kafka.testing.KafkaFrames;
import io.sluice.kafka.testing.RecordFrames;
import io.sluice.kafka.testing.RecordFrames.Part;
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

    private KafkaBenchConnection connection;
    private ByteBuf request;
    private ByteBuf response;

    @Setup(Level.Trial)
    public void connectAndAuthenticate() {
        String never = "{\"publish\": {\"messagesPerSecond\": 1e12, \"bytesPerSecond\": 1e12}}";
        connection = new KafkaBenchConnection(limit.equals("production") ? productionLimits(TOPIC, never) : "{}");
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

    /**
     * Limits that never throttle, as production sets them: {@code never} on {@code topic}, its prefix
     * {@code orders.}, every client id and every principal ({@code "*"}) and the proxy.
     */
    static String productionLimits(String topic, String never) {
        return "{\"proxy\": " + never + ", \"kafka\": {\"topics\": {\"" + topic + "\": " + never + "}, "
                + "\"prefixes\": {\"orders.\": " + never + "}, \"clients\": {\"*\": " + never + "}, "
                + "\"principals\": {\"*\": " + never + "}}}";
    }

    @TearDown(Level.Trial)
    public void close() {
        request.release();
        response.release();
        connection.close();
    }

    /** The request in, forwarded upstream; the response back, forwarded to the client. Returns the frames moved. */
    @Benchmark
    public int produceAndResponse() {
        return connection.roundTrip(request, response, "produce");
    }
}
