package io.sluice.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.Test;
import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.profile.GCProfiler;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.options.Options;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The guard that no change adds cost to the hot path silently: the JMH benchmarks of a Pulsar SEND,
 * a Kafka ProduceRequest and a Kafka Fetch within quota, with limits on every scope and an
 * authenticated identity as in production ({@link ProxyPathBenchmark}, {@link ProducePathBenchmark},
 * {@link FetchPathBenchmark}), run briefly and
 * compared with the baseline committed in {@code src/test/resources/hot-path-baseline.json}.
 *
 * <p>Allocation per operation does not depend on the machine's load, so it is held close: at most
 * 5 % plus 256 bytes over the baseline. The 256 bytes are the JIT's: whether escape analysis removes
 * Netty's objects of one read varies from one JVM to the next, and with how soon C2 compiles the
 * per-read path, which the benchmarks of 100 messages a read call a hundred times less often (304
 * or 432 bytes for one SEND and its receipt; 432 or 657 for 100 of them in one read, the same code).
 * What the guard is for still shows: an object added per message adds 1,600 bytes or more to the
 * benchmarks of 100 messages a read. Time does, so it is only a coarse bound, at most five times
 * the baseline's, which catches a change that makes the path slower by an order of magnitude and
 * nothing a busy machine does. docs/BENCHMARKS.md says how to measure time properly.
 *
 * <p>A change that makes the path cheaper should lower the baseline, so that the saving is kept:
 * {@code mvn -pl bench -am test -Dtest=HotPathGuardTest -Dhotpath.rebaseline=true} (on a quiet
 * machine) writes the figures measured to the baseline file instead of comparing.
 */
class HotPathGuardTest {

    private static final double ALLOCATION_TOLERANCE = 1.05;
    private static final double ALLOCATION_SLACK_BYTES = 256;
    private static final double TIME_TOLERANCE = 5;
    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    @Test
    void theHotPathAllocatesNoMoreThanItsBaselineAndIsNotTenfoldSlower() throws Exception {
        Path baselineFile =
                Path.of(System.getProperty("hotpath.baseline", "src/test/resources/hot-path-baseline.json"));
        Map<String, Figures> measured = measure();
        if (Boolean.getBoolean("hotpath.rebaseline")) {
            write(baselineFile, measured);
            return;
        }
        Map<String, Figures> baseline = read(baselineFile);
        List<String> failures = new ArrayList<>();
        baseline.forEach((name, expected) -> {
            Figures actual = measured.get(name);
            if (actual == null) {
                failures.add(name + ": in the baseline but not measured");
                return;
            }
            double allowedBytes = expected.bytesPerOp() * ALLOCATION_TOLERANCE + ALLOCATION_SLACK_BYTES;
            if (actual.bytesPerOp() > allowedBytes) {
                failures.add(String.format(
                        "%s allocates %.0f B per operation, baseline %.0f B (at most %.0f allowed)",
                        name, actual.bytesPerOp(), expected.bytesPerOp(), allowedBytes));
            }
            if (actual.nsPerOp() > expected.nsPerOp() * TIME_TOLERANCE) {
                failures.add(String.format(
                        "%s takes %.0f ns per operation, over %.0fx its baseline of %.0f ns",
                        name, actual.nsPerOp(), TIME_TOLERANCE, expected.nsPerOp()));
            }
        });
        measured.forEach((name, actual) -> System.out.printf(
                "hot path: %s %.0f B/op (baseline %s), %.0f ns/op%n",
                name,
                actual.bytesPerOp(),
                baseline.containsKey(name)
                        ? String.format("%.0f", baseline.get(name).bytesPerOp())
                        : "none",
                actual.nsPerOp()));
        assertTrue(
                failures.isEmpty(),
                String.join("\n", failures) + "\nIf the cost is intended, say why in the commit and rebaseline"
                        + " (-Dhotpath.rebaseline=true, see HotPathGuardTest).");
    }

    /** Per operation: bytes allocated and nanoseconds taken. */
    record Figures(double bytesPerOp, double nsPerOp) {}

    private static Map<String, Figures> measure() throws Exception {
        Options options = new OptionsBuilder()
                .include(ProxyPathBenchmark.class.getName() + ".sendsAndReceipts$")
                .include(ProducePathBenchmark.class.getName() + ".produceAndResponse$")
                .include(FetchPathBenchmark.class.getName() + ".fetchAndResponse$")
                .param("limit", "production")
                .forks(1)
                // Netty's cheap direct memory, as sluice.jar has it; no leak detector (the jar's
                // default samples, and its records would make allocation vary from run to run).
                .jvmArgs(
                        "-Xmx512m",
                        "-Dio.netty.tryReflectionSetAccessible=true",
                        "--add-opens=java.base/java.nio=ALL-UNNAMED",
                        "--add-opens=java.base/jdk.internal.misc=ALL-UNNAMED",
                        "-Dio.netty.leakDetection.level=disabled")
                .warmupIterations(5)
                .warmupTime(TimeValue.seconds(1))
                .measurementIterations(3)
                .measurementTime(TimeValue.seconds(1))
                .addProfiler(GCProfiler.class)
                .shouldFailOnError(true)
                .build();
        Collection<RunResult> results = new Runner(options).run();
        Map<String, Figures> figures = new TreeMap<>();
        for (RunResult result : results) {
            Result<?> allocation = result.getSecondaryResults().get("gc.alloc.rate.norm");
            if (allocation == null) {
                throw new IllegalStateException("JMH's gc profiler gave no allocation figure");
            }
            figures.put(
                    name(result),
                    new Figures(allocation.getScore(), result.getPrimaryResult().getScore()));
        }
        return figures;
    }

    /** E.g. {@code ProxyPathBenchmark.sendsAndReceipts limit=production sendsPerRead=100}. */
    private static String name(RunResult result) {
        BenchmarkParams params = result.getParams();
        String[] parts = params.getBenchmark().split("\\.");
        StringBuilder name = new StringBuilder(parts[parts.length - 2] + "." + parts[parts.length - 1]);
        new TreeSet<>(params.getParamsKeys())
                .forEach(key -> name.append(' ').append(key).append('=').append(params.getParam(key)));
        return name.toString();
    }

    private static Map<String, Figures> read(Path file) throws IOException {
        Map<String, Figures> baseline = new TreeMap<>();
        for (JsonNode entry : JSON.readTree(file.toFile()).get("benchmarks")) {
            baseline.put(
                    entry.get("name").asText(),
                    new Figures(
                            entry.get("bytesPerOp").asDouble(),
                            entry.get("nsPerOp").asDouble()));
        }
        return baseline;
    }

    private static void write(Path file, Map<String, Figures> measured) throws IOException {
        ObjectNode root = JSON.createObjectNode();
        root.put(
                "note",
                "HotPathGuardTest's baseline: bytes allocated (exact) and nanoseconds (a coarse bound) per operation;"
                        + " rewritten by -Dhotpath.rebaseline=true on a quiet machine");
        ArrayNode entries = root.putArray("benchmarks");
        measured.forEach((name, figures) -> entries.addObject()
                .put("name", name)
                .put("bytesPerOp", Math.round(figures.bytesPerOp()))
                .put("nsPerOp", Math.round(figures.nsPerOp())));
        Files.createDirectories(file.toAbsolutePath().getParent());
        Files.writeString(file, JSON.writeValueAsString(root) + "\n");
    }
}
