package io.sluice.bench.sidebyside;

import org.junit.jupiter.api.Test;

import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** Reading pulsar-perf's output, as pulsar-testclient 4.0.6 prints it (lines from a real run, cut). */
class PulsarPerfRunTest {

    private static final String OUTPUT = String.join(
            "\n",
            "2026-11-30T18:29:12,941 - INFO  - [main:PerformanceProducer@392] - Throughput produced:    1200 msg"
                    + " ---   1200.0 msg/s ---      0.9 Mbit/s  --- failure      0.0 msg/s --- Latency: mean: 120.306 ms",
            "2026-11-30T18:29:13,941 - INFO  - [main:PerformanceProducer@392] - Throughput produced:  201200 msg"
                    + " --- 200000.0 msg/s ---    152.6 Mbit/s  --- failure      0.0 msg/s --- Latency: mean:   2.306 ms",
            "2026-11-30T18:29:14,941 - INFO  - [main:PerformanceProducer@392] - Throughput produced:  501200 msg"
                    + " --- 300000.0 msg/s ---    228.9 Mbit/s  --- failure      0.0 msg/s --- Latency: mean:   2.306 ms",
            "2026-11-30T18:29:32,994 - INFO  - [perf-client-shutdown:PerformanceProducer@774] - Aggregated throughput"
                    + " stats --- 3378697 records sent --- 163067.005 msg/s --- 124.410 Mbit/s ",
            "2026-11-30T18:29:33,239 - INFO  - [perf-client-shutdown:PerformanceProducer@784] - Aggregated latency stats"
                    + " --- Latency: mean:   2.447 ms - med:   1.361 - 95pct:   5.935 - 99pct:  19.777 - 99.9pct:  89.162"
                    + " - 99.99pct: 346.603 - 99.999pct: 346.645 - Max: 415.439");

    @Test
    void throughputIsTheMeanOfTheSecondsAfterTheWarmUpAndLatencyTheAggregate() {
        PulsarPerfRun run = PulsarPerfRun.parse(OUTPUT, 1, Path.of("pulsar-perf.log"));

        assertEquals(3_378_697, run.totalSent());
        assertEquals(250_000.0, run.messagesPerSecond(), 1e-6);
        assertEquals(1.361, run.p50Millis(), 1e-9);
        assertEquals(19.777, run.p99Millis(), 1e-9);
        assertEquals(89.162, run.p999Millis(), 1e-9);
    }

    @Test
    void withoutSecondsAfterTheWarmUpTheAggregateThroughputIsTaken() {
        assertEquals(
                163_067.005,
                PulsarPerfRun.parse(OUTPUT, 3, Path.of("pulsar-perf.log")).messagesPerSecond(),
                1e-6);
    }

    @Test
    void outputWithoutTheSummaryIsAnErrorNamingTheLog() {
        IllegalStateException e = assertThrows(
                IllegalStateException.class,
                () -> PulsarPerfRun.parse("Created 1 producers", 1, Path.of("/tmp/x/pulsar-perf.log")));
        assertEquals("pulsar-perf printed no aggregated stats; see /tmp/x/pulsar-perf.log", e.getMessage());
    }
}
