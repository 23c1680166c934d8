package io.sluice.bench.sidebyside;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The TLS overhead suite end to end with tiny sizes and one workload, so that the build notices
 * when it no longer runs; Apache Pulsar's proxy is left out for time, as in {@link SideBySideSmokeTest}.
 */
class TlsSideBySideSmokeTest {

    @TempDir
    Path output;

    @Test
    void runsEveryContenderOverTlsAndReportsTheMachinesLoad() throws Exception {
        System.setProperty("java.awt.headless", "true");
        BenchSettings tiny = new BenchSettings(
                1,
                0.5,
                1,
                1,
                3,
                1,
                3,
                List.of(1000),
                100_000,
                3,
                20,
                1,
                30,
                2000,
                false,
                false,
                output,
                Path.of(System.getProperty("sluice.jar")).toAbsolutePath(),
                Path.of(System.getProperty("pulsar.proxy.jar")).toAbsolutePath(),
                Path.of("unused"),
                null,
                List.of(),
                List.of("-Xmx256m"),
                // Under the build's own load: past the load gate, which the results then say.
                true);

        String markdown = TlsSideBySide.run(tiny, List.of(Workload.SYNC_1KIB)).markdown();

        assertTrue(markdown.contains("Load gate overridden (-Dbench.allowLoad=true)"), markdown);
        assertTrue(markdown.contains("| direct TLS | "), markdown);
        assertTrue(markdown.contains("| Sluice, TLS both legs | "), markdown);
        assertTrue(markdown.contains("| direct plaintext | "), markdown);
        assertTrue(markdown.contains("### TLS: the machine's load during the runs"), markdown);
        assertTrue(markdown.contains("| 1 KiB, no batching, 1 in flight | "), markdown);
        assertTrue(Files.exists(output.resolve("tls").resolve("results.md")));
    }
}
