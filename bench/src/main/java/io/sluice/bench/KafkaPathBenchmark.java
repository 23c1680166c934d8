package io.sluice.bench;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
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
 * What the Kafka path benchmarks share: one authenticated connection through Sluice in memory
 * ({@link KafkaBenchConnection}), one request and the broker's response to it, kept as bytes and
 * read again for every operation, and the parameters: records in the one batch, and the limits.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public abstract class KafkaPathBenchmark {

    static final String TOPIC = "orders.eu";
    static final int CORRELATION_ID = 7;

    /** Records in the one batch, of 100 bytes each. */
    @Param({"1", "100"})
    int records;

    /**
     * {@code none}: no limit applies; {@code production}: limits of the benchmark's direction that
     * never throttle on the topic, its prefix {@code orders.}, every client id and every principal
     * ({@code "*"}) and the proxy, all charged for every batch.
     */
    @Param({"none", "production"})
    String limit;

    private KafkaBenchConnection connection;
    private ByteBuf request;
    private ByteBuf response;

    @Setup(Level.Trial)
    public void connectAndAuthenticate() {
        String never = "{\"" + limitPart() + "\": {\"messagesPerSecond\": 1e12, \"bytesPerSecond\": 1e12}}";
        connection = new KafkaBenchConnection(
                limit.equals("production")
                        ? "{\"proxy\": " + never + ", \"kafka\": {\"topics\": {\"" + TOPIC + "\": " + never + "}, "
                                + "\"prefixes\": {\"orders.\": " + never + "}, \"clients\": {\"*\": " + never + "}, "
                                + "\"principals\": {\"*\": " + never + "}}}"
                        : "{}");
        request = copied(request(connection));
        response = copied(response());
    }

    @TearDown(Level.Trial)
    public void close() {
        request.release();
        response.release();
        connection.close();
    }

    /** The limit part the benchmark's limits set: {@code publish} or {@code dispatch}. */
    abstract String limitPart();

    /** The request frame the client sends, made once {@code connection} is up; the caller releases it. */
    abstract ByteBuf request(KafkaBenchConnection connection);

    /** The broker's response frame to it; the caller releases it. */
    abstract ByteBuf response();

    /** One operation: the request in, forwarded upstream; the response back, relayed to the client. */
    int roundTrip(String what) {
        return connection.roundTrip(request, response, what);
    }

    /** {@code frame}'s bytes in a direct buffer of their own; releases {@code frame}. */
    private static ByteBuf copied(ByteBuf frame) {
        ByteBuf copy = Unpooled.directBuffer(frame.readableBytes());
        copy.writeBytes(frame);
        frame.release();
        return copy;
    }
}
