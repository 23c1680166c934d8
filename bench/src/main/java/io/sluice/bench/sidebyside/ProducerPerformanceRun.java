package io.sluice.bench.sidebyside;

import io.sluice.testkit.kafka.KafkaCluster;
import io.sluice.testkit.process.ChildProcess;
import io.sluice.testkit.process.JavaCommand;
import io.sluice.testkit.process.RuntimeClasspath;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * Kafka's own load generator, {@code kafka-producer-perf-test} ({@code org.apache.kafka.tools.ProducerPerformance}
 * from kafka-tools), in a child JVM on the Kafka distribution's classpath: an independent check of
 * the figures this suite's own producer measures. Its closing line is the result.
 */
final class ProducerPerformanceRun {

    /** The closing line: totals, then latency percentiles in whole milliseconds. */
    private static final Pattern TOTAL = Pattern.compile(
            "(\\d+) records sent, ([\\d.]+) records/sec \\(([\\d.]+) MB/sec\\), "
                    + "([\\d.]+) ms avg latency, ([\\d.]+) ms max latency, (\\d+) ms 50th, (\\d+) ms 95th, (\\d+) ms 99th, (\\d+) ms 99.9th");

    /** What one run printed. */
    record Result(
            long records, double recordsPerSecond, double avgMillis, int p50Millis, int p99Millis, int p999Millis) {}

    private ProducerPerformanceRun() {}

    /**
     * Sends {@code records} records of {@code recordBytes} to {@code topic} as fast as they go, with
     * {@code acks=all} and {@code linger.ms} as given; returns once the tool exits.
     *
     * @param toolsDir where the bench build copied kafka-tools and argparse4j
     */
    static Result run(
            Path toolsDir,
            String bootstrap,
            String topic,
            long records,
            int recordBytes,
            int lingerMillis,
            Path workDir) {
        String classpath;
        try (Stream<Path> jars = Files.list(toolsDir)) {
            classpath = jars.map(Path::toString).collect(Collectors.joining(File.pathSeparator))
                    + File.pathSeparator
                    + RuntimeClasspath.read(KafkaCluster.class, "kafka.classpath");
        } catch (IOException e) {
            throw new UncheckedIOException("no kafka-tools in " + toolsDir + "; build the bench module first", e);
        }
        ChildProcess tool = JavaCommand.mainClass("org.apache.kafka.tools.ProducerPerformance")
                .classpath(classpath)
                .jvmOptions("-Xmx512m")
                .args(
                        "--topic",
                        topic,
                        "--num-records",
                        Long.toString(records),
                        "--record-size",
                        Integer.toString(recordBytes),
                        "--throughput",
                        "-1",
                        "--producer-props",
                        "bootstrap.servers=" + bootstrap,
                        "acks=all",
                        "linger.ms=" + lingerMillis)
                .spec("producer-perf")
                .logFile(workDir.resolve("producer-perf-" + System.nanoTime() + ".log"))
                .build()
                .start();
        try {
            if (!tool.awaitExit(Duration.ofMinutes(5))) {
                throw new IllegalStateException(
                        "kafka-producer-perf-test still runs after 5 minutes: " + tool.logTail());
            }
            String line = tool.logLine(" ms 99.9th")
                    .orElseThrow(() ->
                            new IllegalStateException("kafka-producer-perf-test printed no totals: " + tool.logTail()));
            Matcher total = TOTAL.matcher(line);
            if (!total.find()) {
                throw new IllegalStateException("unexpected totals line: " + line);
            }
            return new Result(
                    Long.parseLong(total.group(1)),
                    Double.parseDouble(total.group(2)),
                    Double.parseDouble(total.group(4)),
                    Integer.parseInt(total.group(6)),
                    Integer.parseInt(total.group(8)),
                    Integer.parseInt(total.group(9)));
        } finally {
            tool.kill();
        }
    }
}
