package io.sluice.bench.sidebyside;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The regression guard on two result files written the way the suite writes them. */
class CompareResultsTest {

    @TempDir
    Path dir;

    private final ByteArrayOutputStream out = new ByteArrayOutputStream();

    @Test
    void aThroughputRatioThatFellByMoreThanTheThresholdFailsTheComparison() {
        Path baseline = write("baseline.json", 0.97, 2.0, 120);
        Path candidate = write("candidate.json", 0.85, 2.0, 120);

        int exit = compare(baseline, candidate, "--threshold", "10");

        assertEquals(1, exit, output());
        assertTrue(
                output().contains("| passthrough | 1 KiB | Sluice | msg/s vs direct | 0.970 | 0.850 | -12.4 | higher | "
                        + "REGRESSED"),
                output());
        assertTrue(output().contains("1 regressed by more than 10.0 %"), output());
    }

    @Test
    void aChangeWithinTheThresholdOrForTheBetterPasses() {
        Path baseline = write("baseline.json", 0.97, 2.0, 120);
        Path candidate = write("candidate.json", 0.92, 1.5, 120);

        assertEquals(0, compare(baseline, candidate, "--threshold", "10"), output());
    }

    @Test
    void absoluteFiguresCountOnlyWithAll() {
        Path baseline = write("baseline.json", 0.97, 2.0, 120);
        Path candidate = write("candidate.json", 0.97, 2.0, 300);

        assertEquals(0, compare(baseline, candidate), output());
        assertEquals(1, compare(baseline, candidate, "--all"), output());
        assertTrue(output().contains("| proxy RSS MiB | 120.000 | 300.000 | 150.0 | lower | REGRESSED"), output());
    }

    @Test
    void aChangeUnderTheFiguresNoiseFloorIsNeverARegression() {
        Path baseline = write("baseline.json", 0.97, 0.01, 120);
        Path candidate = write("candidate.json", 0.97, 0.04, 120);

        // 300 % worse, but 0.03 under the ratio's noise floor of 0.05.
        assertEquals(0, compare(baseline, candidate), output());
    }

    @Test
    void badArgumentsExitWithTwo() {
        assertEquals(2, compare(dir.resolve("only-one.json")));
        assertEquals(2, CompareResults.run(new String[] {"a", "b", "--threshold", "lots"}, printer(), printer()));
    }

    private Path write(String name, double throughputRatio, double p99Ratio, double rss) {
        ResultFile file = new ResultFile();
        file.describe("started", name);
        file.add("passthrough", "1 KiB", "Sluice", "msg/s vs direct", throughputRatio, true, true, 0.02);
        file.add("passthrough", "1 KiB", "Sluice", "p99 vs direct", p99Ratio, false, true, 0.05);
        file.add("passthrough", "1 KiB", "Sluice", "proxy RSS MiB", rss, false, false, 8);
        Path path = dir.resolve(name);
        file.write(path);
        return path;
    }

    private int compare(Object... filesAndOptions) {
        String[] args = new String[filesAndOptions.length];
        for (int i = 0; i < args.length; i++) {
            args[i] = filesAndOptions[i].toString();
        }
        return CompareResults.run(args, printer(), printer());
    }

    private PrintStream printer() {
        return new PrintStream(out, true, StandardCharsets.UTF_8);
    }

    private String output() {
        return out.toString(StandardCharsets.UTF_8);
    }
}
