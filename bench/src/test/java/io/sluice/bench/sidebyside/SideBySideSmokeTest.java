package io.sluice.bench.sidebyside;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The side-by-side suite end to end with tiny sizes, so that the build notices when it no
 * longer runs. Apache Pulsar's proxy is left out: its start would double the test's time. The
 * figures themselves are not checked; one second per run on a build machine says nothing.
 */
class SideBySideSmokeTest {

    @TempDir
    Path output;

    @Test
    void theScenariosRunAndWriteTheirTablesAndCharts() throws Exception {
        System.setProperty("java.awt.headless", "true");
        // 5 connections of one producer each (8 in the many-connections scenario: each client is a
        // Pulsar client with threads of its own, slow to set up), a held rate of 2,000 msg/s, one
        // profiled run of each workload, and pulsar-perf warmed up for 3 s, not 10.
        BenchSettings tiny = new BenchSettings(
                1,
                0.5,
                3,
                1,
                3,
                1,
                3,
                List.of(1000),
                100_000,
                3,
                5,
                1,
                8,
                2000,
                true,
                false,
                output,
                Path.of(System.getProperty("sluice.jar")).toAbsolutePath(),
                Path.of(System.getProperty("pulsar.proxy.jar")).toAbsolutePath(),
                Path.of(System.getProperty("pulsar.perf.jar")).toAbsolutePath(),
                null,
                List.of(),
                List.of("-Xmx256m"),
                // Under the build's own load: past the load gate, which the results then say.
                true);

        // All but the producers scenario, which is the passthrough code again with several
        // producers: it would add a fifth to the test's time for nothing the others do not reach.
        Set<String> scenarios = new HashSet<>(Set.of(SideBySide.ALL_SCENARIOS.split(",")));
        scenarios.remove("producers");
        String markdown = SideBySide.run(tiny, scenarios).markdown();

        assertTrue(markdown.contains("Load gate overridden (-Dbench.allowLoad=true)"), markdown);
        assertTrue(markdown.contains("Load average (1 min) before the measured runs: "), markdown);
        assertTrue(markdown.contains("### Passthrough: 1 KiB, no batching, 1 in flight"), markdown);
        assertTrue(markdown.contains("| Sluice |"), markdown);
        assertTrue(markdown.contains("### Passthrough: 1 KiB, no batching, 1 in flight, to a consumer"), markdown);
        assertTrue(markdown.contains("| received % |"), markdown);
        assertTrue(markdown.contains("### Connections: 5 clients"), markdown);
        assertTrue(markdown.contains("| 1000 | Sluice (delay) |"), markdown);
        assertTrue(markdown.contains("| Sluice delay, A flooded |"), markdown);
        assertTrue(Files.exists(output.resolve("results.md")));
        assertTrue(Files.size(output.resolve("accuracy-1000.png")) > 0);
        assertTrue(markdown.contains("| 100000 | Sluice (delay) |"), markdown);
        assertTrue(Files.size(output.resolve("latency-cdf-1-kib-no-batching-1-in-flight.png")) > 0);
        assertTrue(Files.size(output.resolve("e2e-latency-cdf-1-kib-no-batching-1-in-flight-to-a-consumer.png")) > 0);
        assertTrue(markdown.contains("### Passthrough with pulsar-perf: 1 KiB, no batching, 1000 in flight"), markdown);
        assertTrue(markdown.contains("| Sluice delay, 2 producers limited to 1000 each |"), markdown);
        assertTrue(markdown.contains("### Connections: 8 clients"), markdown);
        assertTrue(markdown.contains("### Profile: Sluice, 1 KiB, no batching, 1000 in flight"), markdown);
        assertTrue(markdown.contains("| socket writes (system call, kernel TCP, loopback delivery) |"), markdown);
        assertTrue(Files.size(output.resolve("profiles/sluice-1-kib-no-batching-1000-in-flight-cpu.html")) > 0);
        assertTrue(Files.size(output.resolve("profiles/sluice-1-kib-no-batching-1000-in-flight-alloc.html")) > 0);
        // The machine-readable results compare cleanly with themselves.
        Path json = output.resolve("results.json");
        List<ResultFile.Figure> figures = ResultFile.read(json).figures();
        assertTrue(
                figures.stream()
                        .anyMatch(f -> f.metric().equals("msg/s vs direct")
                                && f.contender().equals("Sluice")),
                figures.toString());
        assertTrue(
                ResultFile.read(json).loads().stream()
                        .anyMatch(l -> l.scenario().equals("passthrough")
                                && l.contender().equals("Sluice")),
                "the load around every measured run");
        assertEquals(0, CompareResults.run(new String[] {json.toString(), json.toString()}, System.out, System.err));
    }
}
