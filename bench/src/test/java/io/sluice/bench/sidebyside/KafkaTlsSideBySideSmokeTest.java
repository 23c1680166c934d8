package io.sluice.bench.sidebyside;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The Kafka TLS suite end to end with tiny sizes, so that the build notices when it no longer runs:
 * each contender, Sluice and Kroxylicious with TLS on both legs among them, has records
 * acknowledged over TLS. The figures themselves are not checked: one second per run says nothing.
 */
class KafkaTlsSideBySideSmokeTest {

    @TempDir
    Path output;

    @Test
    void bothWorkloadsRunOverTlsThroughBothProxiesAndWriteTheirTables() throws Exception {
        System.setProperty("java.awt.headless", "true");
        BenchSettings tiny = new BenchSettings(
                1,
                0.5,
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

        String markdown = KafkaTlsSideBySide.run(tiny, true).markdown();

        assertTrue(markdown.contains("### Kafka: 100 B, batched (linger 5 ms), 10000 in flight"), markdown);
        assertTrue(markdown.contains("### Kafka: 1 KiB, unbatched (linger 0), 1 in flight"), markdown);
        assertTrue(markdown.contains("Against Kroxylicious, same run"), markdown);
        Path dir = output.resolve("kafka-tls");
        List<ResultFile.Figure> figures =
                ResultFile.read(dir.resolve("kafka-results.json")).figures();
        for (String contender : List.of("direct TLS", "Sluice, TLS both legs", "Kroxylicious", "direct plaintext")) {
            assertTrue(
                    figures.stream()
                            .anyMatch(f -> f.contender().equals(contender)
                                    && f.metric().equals("records/s")
                                    && f.value() > 0),
                    contender + " had no record acknowledged: " + figures);
        }
        assertTrue(Files.size(dir.resolve("kafka-latency-cdf-1-kib-unbatched-linger-0-1-in-flight.png")) > 0);
    }
}
