package io.sluice.bench;

import io.netty.buffer.ByteBuf;
import io.sluice.kafka.connection.KafkaChannelInitializer;
import io.sluice.kafka.testing.KafkaFrames;
import io.sluice.kafka.testing.RecordFrames;
import io.sluice.kafka.testing.RecordFrames.Part;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.message.FetchRequestData;
import org.openjdk.jmh.annotations.Benchmark;

import java.util.List;

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
public class FetchPathBenchmark extends KafkaPathBenchmark {

    private static final Uuid TOPIC_ID = new Uuid(0x51_1ce_0001L, 0x0de7_0002L);
    private static final short FETCH_VERSION = 17;

    @Override
    String limitPart() {
        return "dispatch";
    }

    @Override
    ByteBuf request(KafkaBenchConnection connection) {
        connection.topicIds().learn(TOPIC_ID, TOPIC);
        return KafkaFrames.request(
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
    }

    @Override
    ByteBuf response() {
        return RecordFrames.fetchResponse(
                FETCH_VERSION, CORRELATION_ID, new Part(TOPIC, TOPIC_ID, 0, RecordFrames.batch(records, 100)));
    }

    /** The request in, forwarded upstream; the response back, charged, forwarded to the client. Returns the frames moved. */
    @Benchmark
    public int fetchAndResponse() {
        return roundTrip("fetch");
    }
}
