package io.sluice.bench;

import io.netty.buffer.ByteBuf;
import io.sluice.kafka.connection.KafkaChannelInitializer;
import io.sluice.kafka.testing.KafkaFrames;
import io.sluice.kafka.testing.RecordFrames;
import io.sluice.kafka.testing.RecordFrames.Part;
import org.openjdk.jmh.annotations.Benchmark;

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
public class ProducePathBenchmark extends KafkaPathBenchmark {

    private static final short PRODUCE_VERSION = 11;

    @Override
    String limitPart() {
        return "publish";
    }

    @Override
    ByteBuf request(KafkaBenchConnection connection) {
        return RecordFrames.produceRequest(PRODUCE_VERSION, (short) -1, CORRELATION_ID, "bench-app", part());
    }

    @Override
    ByteBuf response() {
        return KafkaFrames.response(
                RecordFrames.produceResponse(
                        RecordFrames.produce(PRODUCE_VERSION, (short) -1, part()), PRODUCE_VERSION),
                PRODUCE_VERSION,
                CORRELATION_ID);
    }

    private Part part() {
        return new Part(TOPIC, null, 0, RecordFrames.batch(records, 100));
    }

    /** The request in, forwarded upstream; the response back, forwarded to the client. Returns the frames moved. */
    @Benchmark
    public int produceAndResponse() {
        return roundTrip("produce");
    }
}
