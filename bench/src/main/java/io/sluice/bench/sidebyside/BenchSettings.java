package io.sluice.bench.sidebyside;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

/**
 * The suite's sizes and paths, from system properties ({@code -Dbench.rounds=3} ...) so that one
 * command runs the full suite and the smoke test runs the same code with tiny sizes.
 *
 * @param rounds             how many times each contender runs each passthrough, producers and
 *                           end-to-end workload (A B C A B C ...); 5 unless told, the fewest whose
 *                           median one disturbed round cannot move
 * @param warmupSeconds      unmeasured load before each measured run
 * @param pulsarPerfWarmupSeconds pulsar-perf's own warm-up in each of its runs: a fresh pulsar-perf
 *                           JVM compiles its own code for several seconds
 * @param measureSeconds     each measured run of a passthrough, producers or end-to-end workload
 * @param accuracySeconds    each flood of a rate-limited topic
 * @param isolationSeconds   how long topic B is paced in the noisy-neighbour scenario
 * @param adaptiveSeconds   each case of the adaptive scenario
 * @param accuracyRates      the limits the accuracy scenario configures, msg/s
 * @param accuracyBytesPerSecond the bytes/s limit the accuracy scenario configures once
 * @param producers          how many producers share one connection in the producers scenario
 * @param connections        how many clients, each with one connection and one producer, the
 *                           connections scenario opens
 * @param connectionsSeconds each measured run of the connections scenario
 * @param manyConnections    how many clients the many-connections scenario opens (Sluice and direct only)
 * @param heldRate           the limit of the held scenario, msg/s: one producer limited to it, then two
 *                           producers limited to half of it each
 * @param profile            whether to profile each proxy (async-profiler and JFR) in an extra,
 *                           unmeasured run of each passthrough, producers and held workload
 * @param pulsarProxy        whether Apache Pulsar's proxy is a contender
 * @param outputDir          where results.md and the PNG charts go
 * @param sluiceJar          Sluice's executable jar
 * @param pulsarProxyJar     the pulsar-proxy jar copied by the bench build
 * @param pulsarPerfJar      the pulsar-testclient (pulsar-perf) jar copied by the bench build
 * @param sluiceJarB         a second Sluice jar, run beside the first as contender "Sluice B" (an A/B
 *                           run of two builds against one broker), or null
 * @param sluiceBJvmOptions  JVM options for Sluice B only, after {@code proxyJvmOptions} (an A/B run of
 *                           two settings of one build when {@code sluiceJarB} is the same jar)
 * @param proxyJvmOptions    JVM options given to both proxies alike (separated by spaces or commas)
 * @param allowLoad          whether measured runs start at any load ({@code -Dbench.allowLoad=true});
 *                           otherwise {@link LoadGate} holds each until the machine is quiet
 */
record BenchSettings(
        int rounds,
        double warmupSeconds,
        double pulsarPerfWarmupSeconds,
        double measureSeconds,
        double accuracySeconds,
        double isolationSeconds,
        double adaptiveSeconds,
        List<Integer> accuracyRates,
        long accuracyBytesPerSecond,
        int producers,
        int connections,
        double connectionsSeconds,
        int manyConnections,
        int heldRate,
        boolean profile,
        boolean pulsarProxy,
        Path outputDir,
        Path sluiceJar,
        Path pulsarProxyJar,
        Path pulsarPerfJar,
        Path sluiceJarB,
        List<String> sluiceBJvmOptions,
        List<String> proxyJvmOptions,
        boolean allowLoad) {

    static BenchSettings fromSystemProperties() {
        return new BenchSettings(
                Integer.getInteger("bench.rounds", 5),
                number("bench.warmupSeconds", 3),
                number("bench.pulsarPerfWarmupSeconds", 10),
                number("bench.measureSeconds", 8),
                number("bench.accuracySeconds", 12),
                number("bench.isolationSeconds", 10),
                number("bench.adaptiveSeconds", 20),
                Arrays.stream(System.getProperty("bench.accuracyRates", "100,1000,10000")
                                .split(","))
                        .map(String::trim)
                        .map(Integer::valueOf)
                        .toList(),
                Long.getLong("bench.accuracyBytesPerSecond", 1_000_000),
                Integer.getInteger("bench.producers", 16),
                Integer.getInteger("bench.connections", 1000),
                number("bench.connectionsSeconds", 10),
                Integer.getInteger("bench.manyConnections", 10_000),
                Integer.getInteger("bench.heldRate", 50_000),
                Boolean.parseBoolean(System.getProperty("bench.profile", "false")),
                Boolean.parseBoolean(System.getProperty("bench.pulsarProxy", "true")),
                Path.of(System.getProperty("bench.output", "docs/bench")).toAbsolutePath(),
                Path.of(System.getProperty("sluice.jar", "proxy-server/target/sluice.jar"))
                        .toAbsolutePath(),
                Path.of(System.getProperty("pulsar.proxy.jar", "bench/target/pulsar-proxy/pulsar-proxy.jar"))
                        .toAbsolutePath(),
                Path.of(System.getProperty("pulsar.perf.jar", "bench/target/pulsar-perf/pulsar-testclient.jar"))
                        .toAbsolutePath(),
                System.getProperty("bench.sluiceB") == null
                        ? null
                        : Path.of(System.getProperty("bench.sluiceB")).toAbsolutePath(),
                options(System.getProperty("bench.sluiceBJvm", "")),
                options(System.getProperty("bench.proxyJvm", "-Xmx512m")),
                Boolean.parseBoolean(System.getProperty(LoadGate.OVERRIDE_PROPERTY, "false")));
    }

    /** JVM options separated by spaces or commas (commas survive BENCH_OPTS, which the shell splits on spaces). */
    private static List<String> options(String value) {
        return Arrays.stream(value.split("[ ,]+"))
                .filter(option -> !option.isEmpty())
                .toList();
    }

    /** The same settings writing to {@code dir}. */
    BenchSettings withOutputDir(Path dir) {
        return new BenchSettings(
                rounds,
                warmupSeconds,
                pulsarPerfWarmupSeconds,
                measureSeconds,
                accuracySeconds,
                isolationSeconds,
                adaptiveSeconds,
                accuracyRates,
                accuracyBytesPerSecond,
                producers,
                connections,
                connectionsSeconds,
                manyConnections,
                heldRate,
                profile,
                pulsarProxy,
                dir,
                sluiceJar,
                pulsarProxyJar,
                pulsarPerfJar,
                sluiceJarB,
                sluiceBJvmOptions,
                proxyJvmOptions,
                allowLoad);
    }

    private static double number(String key, double fallback) {
        String value = System.getProperty(key);
        return value == null ? fallback : Double.parseDouble(value);
    }
}
