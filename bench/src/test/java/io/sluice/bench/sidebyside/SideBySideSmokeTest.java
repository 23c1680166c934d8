package io.sluice.bench.sidebyside;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The whole side-by-side suite end to end with tiny sizes, so that the build notices when it no
 * longer runs. Apache Pulsar's proxy is left out: its start would double the test's time. The
 * figures themselves are not checked; one second per run on a build machine says nothing.
 */
class SideBySideSmokeTest {

    @TempDir
    Path output;

    @Test
    void everyScenarioRunsAndWritesItsTablesAndCharts() throws Exception {
        System.setProperty("java.awt.headless", "true");
        // 3 producers on one connection, 20 connections of one producer each.
        BenchSettings tiny = new BenchSettings(1, 0.5, 1, 3, 1, List.of(1000), 100_000, 3, 20, 1, false, output,
                Path.of(System.getProperty("sluice.jar")).toAbsolutePath(),
                Path.of(System.getProperty("pulsar.proxy.jar")).toAbsolutePath(), List.of("-Xmx256m"));

        String markdown = SideBySide.run(tiny, Set.of(SideBySide.ALL_SCENARIOS.split(","))).markdown();

        assertTrue(markdown.contains("### Passthrough: 1 KiB, no batching, 1 in flight"), markdown);
        assertTrue(markdown.contains("| Sluice |"), markdown);
        assertTrue(markdown.contains("### Passthrough: 3 producers, 100 B, batching, 333 in flight each"), markdown);
        assertTrue(markdown.contains("### Passthrough: 1 KiB, no batching, 1 in flight, to a consumer"), markdown);
        assertTrue(markdown.contains("| received % |"), markdown);
        assertTrue(markdown.contains("### Connections: 20 clients"), markdown);
        assertTrue(markdown.contains("| 1000 | Sluice (delay) |"), markdown);
        assertTrue(markdown.contains("| Sluice delay, A flooded |"), markdown);
        assertTrue(Files.exists(output.resolve("results.md")));
        assertTrue(Files.size(output.resolve("accuracy-1000.png")) > 0);
        assertTrue(markdown.contains("| 100000 | Sluice (delay) |"), markdown);
        assertTrue(Files.size(output.resolve("latency-cdf-1-kib-no-batching-1-in-flight.png")) > 0);
        assertTrue(Files.size(output.resolve("e2e-latency-cdf-1-kib-no-batching-1-in-flight-to-a-consumer.png")) > 0);
    }
}
