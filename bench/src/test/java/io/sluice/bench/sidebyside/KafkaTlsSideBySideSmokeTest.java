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
        BenchSettings tiny = KafkaSmokeSettings.tiny(output);

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
