package io.sluice.bench;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.sluice.kafka.connection.KafkaChannelInitializer;
import io.sluice.kafka.testing.KafkaFrames;
import io.sluice.kafka.testing.RecordFrames;
import io.sluice.kafka.testing.RecordFrames.Part;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.message.FetchRequestData;
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

import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A consumer's Fetch through Sluice in memory, as {@link ProducePathBenchmark} is a producer's: a
 * Fetch request naming one partition by topic id, as the Java client sends it, goes through the
 * client pipeline of {@link KafkaChannelInitializer} (frame decoder, client handler, fetch gate, the
 * write to the upstream channel), and the broker's response carrying one record batch comes back
 * through the upstream pipeline, is charged to the fetch limits and reaches the client. One
 * operation is that round trip.
 *
 * <p>Run: {@code java -jar bench/target/benchmarks.jar FetchPath -f 1 -wi 3 -w 2s -i 5 -r 2s -prof gc}
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class FetchPathBenchmark {

    private static final String TOPIC = "orders.eu";
    private static final Uuid TOPIC_ID = new Uuid(0x51_1ce_0001L, 0x0de7_0002L);
    private static final short FETCH_VERSION = 17;
    private static final int CORRELATION_ID = 7;

    /** Records in the response's one batch, of 100 bytes each. */
    @Param({"1", "100"})
    int records;

    /**
     * {@code none}: no limit applies; {@code production}: fetch limits that never throttle on the
     * topic, its prefix, every client id and every principal and the proxy, all charged for every
     * batch.
     */
    @Param({"none", "production"})
    String limit;

    private KafkaBenchConnection connection;
    private ByteBuf request;
    private ByteBuf response;

    @Setup(Level.Trial)
    public void connectAndAuthenticate() {
        String never = "{\"dispatch\": {\"messagesPerSecond\": 1e12, \"bytesPerSecond\": 1e12}}";
        connection = new KafkaBenchConnection(
                limit.equals("production") ? ProducePathBenchmark.productionLimits(TOPIC, never) : "{}");
        connection.topicIds().learn(TOPIC_ID, TOPIC);
        request = Unpooled.directBuffer();
        response = Unpooled.directBuffer();
        ByteBuf fetch = KafkaFrames.request(
                new FetchRequestData()
                        .setReplicaId(-1)
                        .setMaxWaitMs(500)
                        .setMinBytes(1)
                        .setMaxBytes(50 * 1024 * 1024)
                        .setTopics(List.of(new FetchRequestData.FetchTopic()
                                .setTopicId(TOPIC_ID)
                                .setPartitions(List.of(new FetchRequestData.FetchPartition()
                                        .setPartition(0)
                                        .setFetchOffset(0)
                                        .setPartitionMaxBytes(1024 * 1024))))),
                FETCH_VERSION,
                CORRELATION_ID,
                "bench-app");
        ByteBuf answer = RecordFrames.fetchResponse(
                FETCH_VERSION, CORRELATION_ID, new Part(TOPIC, TOPIC_ID, 0, RecordFrames.batch(records, 100)));
        request.writeBytes(fetch);
        response.writeBytes(answer);
        fetch.release();
        answer.release();
    }

    @TearDown(Level.Trial)
    public void close() {
        request.release();
        response.release();
        connection.close();
    }

    /** The request in, forwarded upstream; the response back, charged, forwarded to the client. Returns the frames moved. */
    @Benchmark
    public int fetchAndResponse() {
        return connection.roundTrip(request, response, "fetch");
    }
}
