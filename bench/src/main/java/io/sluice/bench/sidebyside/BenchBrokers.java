package io.sluice.bench.sidebyside;

import io.sluice.testkit.kafka.KafkaCluster;
import io.sluice.testkit.pulsar.PulsarBroker;

/**
 * The brokers of the side-by-side runs: configured so that they measure a proxy, not the broker's
 * batching in time, and so that they keep nothing they were sent once no one can read it.
 *
 * <p>A run writes tens of gigabytes (100 B batched passes a million messages a second): the
 * testkit's brokers keep every message for tests that read topics back, which filled a 74 GiB disk
 * in one 30-minute Pulsar run until the bookie turned read-only ("Not enough non-faulty bookies").
 * The bench reads only what its consumers receive as it is sent, so its brokers keep nothing
 * unacknowledged past a ledger or segment and reclaim the files within seconds.
 */
final class BenchBrokers {

    private BenchBrokers() {}

    /** A standalone Pulsar broker for the bench (its TLS and listeners left to the caller). */
    static PulsarBroker.Builder pulsar() {
        return PulsarBroker.builder()
                // Both keep the broker from batching in time, which would hide what a proxy adds:
                // a synchronous send would wait for the bookie's 2 ms group commit, and a caught-up
                // consumer would be sent a new message only when its cursor next looks, every 10 ms.
                .config("journalFlushWhenQueueEmpty", "true")
                .config("managedLedgerNewEntriesCheckDelayInMillis", "0")
                // Nothing retained: a ledger no subscription needs is deleted at its rollover, which
                // comes every 50,000 entries, checked every 10 s; the bookie's entry logs, 256 MiB
                // each, are collected every 10 s.
                .config("defaultRetentionTimeInMinutes", "0")
                .config("defaultRetentionSizeInMB", "0")
                .config("managedLedgerMinLedgerRolloverTimeMinutes", "0")
                .config("retentionCheckIntervalInSeconds", "10")
                .config("logSizeLimit", Long.toString(256L << 20))
                .config("gcWaitTime", "10000");
    }

    /** A KRaft cluster of {@code brokers} for the bench: 64 MiB segments, kept a minute. */
    static KafkaCluster.Builder kafka(int brokers) {
        return KafkaCluster.builder()
                .brokers(brokers)
                .jvmOptions("-Xmx1g", "-XX:TieredStopAtLevel=4")
                .brokerConfig("log.segment.bytes", Integer.toString(64 << 20))
                .brokerConfig("log.retention.ms", "60000")
                .brokerConfig("log.retention.check.interval.ms", "10000")
                .brokerConfig("log.segment.delete.delay.ms", "1000");
    }
}
