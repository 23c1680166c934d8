package io.sluice.bench.sidebyside;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The Kafka side-by-side suite end to end with tiny sizes, so that the build notices when it no
 * longer runs. The figures themselves are not checked: one second per run says nothing.
 */
class KafkaSideBySideSmokeTest {

    @TempDir
    Path output;

    @Test
    void everyWorkloadAndKafkasOwnLoadGeneratorRunAndWriteTheirTables() throws Exception {
        System.setProperty("java.awt.headless", "true");
        BenchSettings tiny = new BenchSettings(
                1,
                0.5,
                1,
                1,
                1,
                1,
                List.of(1000),
                100_000,
                1,
                1,
                1,
                1,
                1,
                false,
                false,
                output,
                Path.of(System.getProperty("sluice.jar")).toAbsolutePath(),
                Path.of("unused"),
                Path.of("unused"),
                null,
                List.of(),
                List.of("-Xmx256m"));

        String markdown = KafkaSideBySide.run(tiny, 2_000, Path.of(System.getProperty("kafka.tools.dir")))
                .markdown();

        assertTrue(markdown.contains("### Kafka: 100 B, batched (linger 5 ms), 10000 in flight"), markdown);
        assertTrue(markdown.contains("### Kafka: 1 KiB, unbatched (linger 0), 1 in flight, to a consumer"), markdown);
        assertTrue(markdown.contains("| Sluice |"), markdown);
        assertTrue(markdown.contains("| received % |"), markdown);
        assertTrue(markdown.contains("### Kafka: kafka-producer-perf-test, 2000 records"), markdown);
        assertTrue(Files.exists(output.resolve("kafka-results.md")));
        assertTrue(Files.size(output.resolve("kafka-latency-cdf-1-kib-unbatched-linger-0-1-in-flight.png")) > 0);
    }
}
