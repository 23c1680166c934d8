package io.sluice.bench.sidebyside;

/**
 * One producer's load on a Kafka topic.
 *
 * @param name        how the report calls it
 * @param recordBytes value size of every record
 * @param lingerMillis the producer's {@code linger.ms}: 0 sends each record at once, more lets it batch
 * @param inFlight    records sent and not yet acknowledged at most; 1 is a synchronous producer
 * @param consumer    whether a consumer in the same JVM reads the topic, for publish-to-receive latency
 */
record KafkaWorkload(String name, int recordBytes, int lingerMillis, int inFlight, boolean consumer) {

    /** Batched: small records, as fast as the producer takes them, batched for 5 ms. */
    static final KafkaWorkload BATCHED_100B =
            new KafkaWorkload("100 B, batched (linger 5 ms), 10000 in flight", 100, 5, 10_000, false);
    /** Unbatched: one 1 KiB record per request, each waited for: latency bound. */
    static final KafkaWorkload SYNC_1KIB =
            new KafkaWorkload("1 KiB, unbatched (linger 0), 1 in flight", 1024, 0, 1, false);

    KafkaWorkload withConsumer() {
        return new KafkaWorkload(name + ", to a consumer", recordBytes, lingerMillis, inFlight, true);
    }
}
