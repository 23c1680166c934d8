package io.sluice.bench.sidebyside;

import io.sluice.testkit.pulsar.PulsarBroker;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One {@code pulsar-perf produce} (Apache Pulsar's own load generator, {@code pulsar-testclient}
 * 4.0.6 on the 4.0.7 broker's runtime classpath) run to completion in a JVM of its own, and what
 * it reported: an independent check on the suite's own load generator.
 *
 * @param totalSent         messages it sent, warm-up included
 * @param messagesPerSecond the mean of its per-second throughput after its warm-up (its own aggregated
 *                          figure counts the warm-up, when a fresh JVM's JIT is still at work)
 * @param p50Millis         its aggregated median send latency
 * @param p99Millis         its aggregated 99th percentile
 * @param p999Millis        its aggregated 99.9th percentile
 */
record PulsarPerfRun(long totalSent, double messagesPerSecond, double p50Millis, double p99Millis, double p999Millis) {

    private static final String MAIN_CLASS = "org.apache.pulsar.testclient.PulsarPerfTestTool";
    private static final Pattern THROUGHPUT =
            Pattern.compile("Aggregated throughput stats --- ([\\d,]+) records sent --- ([\\d.,]+) msg/s");
    /** One line a second with {@code -i 1}. */
    private static final Pattern INTERVAL = Pattern.compile("Throughput produced: +[\\d.,]+ msg --- +([\\d.,]+) msg/s");

    private static final Pattern LATENCY = Pattern.compile(
            "Aggregated latency stats --- Latency: mean: +[\\d.]+ ms - med: +([\\d.]+) - 95pct: +[\\d.]+ - "
                    + "99pct: +([\\d.]+) - 99.9pct: +([\\d.]+)");

    /**
     * Runs {@code pulsar-perf produce} against {@code serviceUrl} for {@code warmupSeconds +
     * seconds} (its own warm-up excluded from its latency figures) and parses its summary.
     *
     * @param arguments the workload's options, e.g. {@code -s 1024 -o 1000 -db}
     */
    static PulsarPerfRun run(
            Path testclientJar,
            String serviceUrl,
            String topic,
            List<String> arguments,
            double warmupSeconds,
            double seconds,
            Path workDir) {
        Path log = workDir.resolve("pulsar-perf.log");
        Path clientConf = workDir.resolve("pulsar-perf-client.conf");
        List<String> command = new ArrayList<>(
                List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx1g"));
        command.addAll(PulsarBroker.PULSAR_JVM_FLAGS);
        command.addAll(List.of(
                MAIN_CLASS,
                clientConf.toString(),
                "produce",
                "-u",
                serviceUrl,
                "--warmup-time",
                Double.toString(warmupSeconds),
                "-i",
                "1",
                "-time",
                Long.toString(Math.round(warmupSeconds + seconds))));
        command.addAll(arguments);
        command.add(topic);
        try {
            // Its first argument is a client configuration file; every setting here is on its command line.
            Files.writeString(clientConf, "");
            ProcessBuilder builder = new ProcessBuilder(command)
                    .directory(workDir.toFile())
                    .redirectErrorStream(true)
                    .redirectOutput(log.toFile());
            builder.environment()
                    .put("CLASSPATH", PulsarBroker.runtimeClasspath() + File.pathSeparator + testclientJar);
            Process process = builder.start();
            long timeout = Math.round(warmupSeconds + seconds) + 120;
            if (!process.waitFor(timeout, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor();
                throw new IllegalStateException("pulsar-perf did not finish within " + timeout + " s; see " + log);
            }
            return parse(Files.readString(log, StandardCharsets.UTF_8), (int) Math.ceil(warmupSeconds), log);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot run pulsar-perf", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    /** Reads pulsar-perf's output; the first {@code warmupLines} per-second lines are its warm-up. */
    static PulsarPerfRun parse(String output, int warmupLines, Path log) {
        Matcher throughput = THROUGHPUT.matcher(output);
        Matcher latency = LATENCY.matcher(output);
        if (!throughput.find() || !latency.find()) {
            throw new IllegalStateException("pulsar-perf printed no aggregated stats; see " + log);
        }
        Matcher interval = INTERVAL.matcher(output);
        double sum = 0;
        int lines = 0;
        for (int line = 0; interval.find(); line++) {
            if (line >= warmupLines) {
                sum += number(interval.group(1));
                lines++;
            }
        }
        return new PulsarPerfRun(
                (long) number(throughput.group(1)),
                lines == 0 ? number(throughput.group(2)) : sum / lines,
                Double.parseDouble(latency.group(1)),
                Double.parseDouble(latency.group(2)),
                Double.parseDouble(latency.group(3)));
    }

    /** A figure as pulsar-perf prints it, perhaps with grouping commas. */
    private static double number(String text) {
        return Double.parseDouble(text.replace(",", ""));
    }
}
