package io.sluice.server.it;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The series of one {@code /metrics} scrape, by sample name ({@code sluice_publish_messages_total},
 * {@code sluice_throttle_delay_seconds_bucket}...): what a dashboard or rule can select. Only
 * names and labels are kept; the format itself is checked by admin-api's tests.
 */
final class ExposedMetrics {

    private static final Pattern SAMPLE = Pattern.compile("([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\\{(.*)})? \\S+(?: \\S+)?");
    private static final Pattern LABEL = Pattern.compile("([a-zA-Z_][a-zA-Z0-9_]*)=\"((?:[^\"\\\\]|\\\\.)*)\",?");

    private final Map<String, List<Map<String, String>>> series;

    private ExposedMetrics(Map<String, List<Map<String, String>>> series) {
        this.series = series;
    }

    static ExposedMetrics parse(String exposition) {
        Map<String, List<Map<String, String>>> series = new HashMap<>();
        for (String line : exposition.split("\n")) {
            if (line.isBlank() || line.startsWith("#")) {
                continue;
            }
            Matcher sample = SAMPLE.matcher(line);
            if (!sample.matches()) {
                throw new AssertionError("not a sample line: " + line);
            }
            Map<String, String> labels = new TreeMap<>();
            if (sample.group(2) != null) {
                Matcher label = LABEL.matcher(sample.group(2));
                while (label.find()) {
                    labels.put(
                            label.group(1), label.group(2).replace("\\\"", "\"").replace("\\\\", "\\"));
                }
            }
            series.computeIfAbsent(sample.group(1), name -> new ArrayList<>()).add(labels);
        }
        return new ExposedMetrics(series);
    }

    boolean has(String metric) {
        return series.containsKey(metric);
    }

    /** The label names any series of {@code metric} has. */
    Set<String> labels(String metric) {
        Set<String> labels = new TreeSet<>();
        series.getOrDefault(metric, List.of()).forEach(s -> labels.addAll(s.keySet()));
        return labels;
    }

    /** The values {@code label} takes across the series of {@code metric}. */
    Set<String> values(String metric, String label) {
        Set<String> values = new TreeSet<>();
        series.getOrDefault(metric, List.of()).forEach(s -> {
            if (s.containsKey(label)) {
                values.add(s.get(label));
            }
        });
        return values;
    }
}
