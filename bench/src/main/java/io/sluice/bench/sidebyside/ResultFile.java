package io.sluice.bench.sidebyside;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The suite's figures in machine-readable form ({@code results.json}), for {@link CompareResults}
 * to set one run against another: every figure a table shows, each with which way is better and
 * how large a change is noise whatever the threshold.
 *
 * <p>The form: {@code {"run": {...settings and machine...}, "figures": [{"scenario": "passthrough",
 * "workload": "1 KiB, no batching, 1000 in flight", "contender": "Sluice", "metric": "msg/s vs direct",
 * "value": 0.93, "better": "higher", "ratio": true, "noise": 0.02}, ...], "loads": [{"scenario":
 * "passthrough", "workload": ..., "contender": "Sluice", "round": 1, "before": 0.41, "after": 0.97}, ...]}}.
 */
final class ResultFile {

    /**
     * One figure.
     *
     * @param better "higher" or "lower"
     * @param ratio  whether it is a ratio of contenders measured side by side in one run (what
     *               counts on a shared machine), not an absolute figure
     * @param noise  a change smaller than this, in the figure's own unit, is never a regression
     */
    record Figure(
            String scenario,
            String workload,
            String contender,
            String metric,
            double value,
            String better,
            boolean ratio,
            double noise) {

        /** The figure's identity across runs. */
        String key() {
            return scenario + " | " + workload + " | " + contender + " | " + metric;
        }

        boolean higherIsBetter() {
            return "higher".equals(better);
        }
    }

    /**
     * The 1-minute load average around one measured run, so that a figure can be read against the
     * machine it was measured on.
     *
     * @param round  1 for the first round
     * @param before the load as the run started, after its warm-up
     * @param after  the load as it ended
     */
    record RunLoad(String scenario, String workload, String contender, int round, double before, double after) {}

    /** The whole file; {@code loads} is absent from files written before it was recorded. */
    record Content(Map<String, String> run, List<Figure> figures, List<RunLoad> loads) {}

    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private final Map<String, String> run = new LinkedHashMap<>();
    private final List<Figure> figures = new ArrayList<>();
    private final List<RunLoad> loads = new ArrayList<>();

    /** Describes the run: settings, commit, machine. */
    void describe(String key, String value) {
        run.put(key, value);
    }

    /** Adds a figure unless it is not a number (a contender without a proxy has no proxy CPU). */
    void add(
            String scenario,
            String workload,
            String contender,
            String metric,
            double value,
            boolean higherIsBetter,
            boolean ratio,
            double noise) {
        if (Double.isFinite(value)) {
            figures.add(new Figure(
                    scenario, workload, contender, metric, value, higherIsBetter ? "higher" : "lower", ratio, noise));
        }
    }

    /** Records the load around one measured run. */
    void load(String scenario, String workload, String contender, int round, double before, double after) {
        loads.add(new RunLoad(scenario, workload, contender, round, before, after));
    }

    List<Figure> figures() {
        return figures;
    }

    void write(Path file) {
        try {
            JSON.writeValue(file.toFile(), new Content(run, figures, loads));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file, e);
        }
    }

    static Content read(Path file) {
        try {
            return JSON.readValue(file.toFile(), new TypeReference<Content>() {});
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file, e);
        }
    }
}
