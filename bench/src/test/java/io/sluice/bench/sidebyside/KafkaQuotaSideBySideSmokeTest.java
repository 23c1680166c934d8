package io.sluice.bench.sidebyside;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertTrue;

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
        BenchSettings tiny = new BenchSettings(
                1,
                1,
                1,
                1,
                1,
                1,
                3,
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
                List.of("-Xmx256m"),
                // Under the build's own load: past the load gate, which the results then say.
                true);

        String markdown =
                KafkaQuotaSideBySide.run(tiny, Set.of("accuracy", "isolation")).markdown();

        for (String part : List.of(
                "Load gate overridden (-Dbench.allowLoad=true)",
                "### Kafka quotas: produce accuracy",
                "| 1000 | unbatched (linger.ms=0) |",
                "| 100000 | batched (linger.ms=5) |",
                "### Kafka quotas: fetch accuracy",
                "| 1000 records/s |",
                "| Sluice topic quota (delay), A flooded |",
                "| Kafka client-id quota")) {
            assertTrue(markdown.contains(part), part + " in\n" + markdown);
        }
        for (String file : List.of(
                "kafka-quotas-results.md",
                "kafka-quotas-results.json",
                "kafka-quota-produce-1000.png",
                "kafka-quota-fetch.png")) {
            assertTrue(Files.size(output.resolve(file)) > 0, file);
        }
    }
}
