package io.sluice.bench.sidebyside;

import java.nio.file.Path;
import java.util.List;

/** The tiny sizes of the Kafka suites' smoke tests: one round of a second per run, past the load gate. */
final class KafkaSmokeSettings {

    private KafkaSmokeSettings() {}

    /** Writing to {@code output}, with the {@code sluice.jar} the build made. */
    static BenchSettings tiny(Path output) {
        System.setProperty("java.awt.headless", "true");
        return new BenchSettings(
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
    }
}
