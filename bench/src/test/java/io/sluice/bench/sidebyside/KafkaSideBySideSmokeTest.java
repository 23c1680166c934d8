package io.sluice.bench.sidebyside;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The Kafka side-by-side suite end to end with tiny sizes, Kroxylicious among the contenders, so
 * that the build notices when it no longer runs. The figures themselves are not checked: one second
 * per run says nothing. What is checked is that the records sent through each proxy arrive.
 */
class KafkaSideBySideSmokeTest {

    @TempDir
    Path output;

    @Test
    void everyWorkloadAndKafkasOwnLoadGeneratorRunThroughBothProxiesAndWriteTheirTables() throws Exception {
        BenchSettings tiny = KafkaSmokeSettings.tiny(output);

        String markdown = KafkaSideBySide.run(tiny, 2_000, Path.of(System.getProperty("kafka.tools.dir")), true)
                .markdown();

        assertTrue(markdown.contains("### Kafka: 100 B, batched (linger 5 ms), 10000 in flight"), markdown);
        assertTrue(markdown.contains("### Kafka: 1 KiB, unbatched (linger 0), 1 in flight, to a consumer"), markdown);
        assertTrue(markdown.contains("| Sluice |"), markdown);
        assertTrue(markdown.contains("| Kroxylicious |"), markdown);
        assertTrue(markdown.contains("Against Kroxylicious, same run"), markdown);
        // The consumer read back every record it was sent through each proxy.
        assertTrue(markdown.contains("| Sluice | 100.0 |"), markdown);
        assertTrue(markdown.contains("| Kroxylicious | 100.0 |"), markdown);
        assertTrue(markdown.contains("Load gate overridden (-Dbench.allowLoad=true)"), markdown);
        assertTrue(markdown.contains("### Kafka: kafka-producer-perf-test, 2000 records"), markdown);
        assertTrue(markdown.contains("Load average (1 min) before the measured runs: "), markdown);
        assertTrue(Files.exists(output.resolve("kafka-results.md")));
        // Every measured run's load before and after it, Kroxylicious's among them.
        List<ResultFile.RunLoad> loads =
                ResultFile.read(output.resolve("kafka-results.json")).loads();
        assertTrue(
                loads.stream().anyMatch(l -> l.contender().equals("Kroxylicious") && l.after() >= 0), loads.toString());
        assertTrue(Files.size(output.resolve("kafka-latency-cdf-1-kib-unbatched-linger-0-1-in-flight.png")) > 0);
    }
}
