package io.sluice.bench.sidebyside;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Kafka quotas suite end to end with the smallest sizes, so that the build notices when it no
 * longer runs. The figures themselves are not checked: a second per limit says nothing.
 */
class KafkaQuotaSideBySideSmokeTest {

    @TempDir
    Path output;

    @Test
    void accuracyAndIsolationRunAndWriteTheirTablesAndCharts() throws Exception {
        System.setProperty("java.awt.headless", "true");
        BenchSettings tiny = new BenchSettings(1, 1, 1, 1, 1, List.of(1000), 100_000, 1, 1, 1, 1, 1, false,
                false, output, Path.of(System.getProperty("sluice.jar")).toAbsolutePath(), Path.of("unused"), Path.of("unused"),
                null, List.of(), List.of("-Xmx256m"));

        String markdown = KafkaQuotaSideBySide.run(tiny).markdown();

        assertTrue(markdown.contains("### Kafka quotas: produce accuracy"), markdown);
        assertTrue(markdown.contains("| 1000 | unbatched (linger.ms=0) |"), markdown);
        assertTrue(markdown.contains("| 100000 | batched (linger.ms=5) |"), markdown);
        assertTrue(markdown.contains("### Kafka quotas: fetch accuracy"), markdown);
        assertTrue(markdown.contains("| 1000 records/s |"), markdown);
        assertTrue(markdown.contains("| Sluice topic quota (delay), A flooded |"), markdown);
        assertTrue(markdown.contains("| Kafka client-id quota"), markdown);
        assertTrue(Files.exists(output.resolve("kafka-quotas-results.md")));
        assertTrue(Files.size(output.resolve("kafka-quotas-results.json")) > 0);
        assertTrue(Files.size(output.resolve("kafka-quota-produce-1000.png")) > 0);
        assertTrue(Files.size(output.resolve("kafka-quota-fetch.png")) > 0);
    }
}
