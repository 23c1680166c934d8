package io.sluice.admin;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A strict reader of the Prometheus text exposition format 0.0.4, for tests: it fails on any
 * line the format does not allow, a sample without its family's HELP and TYPE before it, a family
 * split in two, a series written twice, and a histogram whose buckets are not cumulative or do
 * not end at {@code +Inf} with the count.
 */
final class PrometheusText {

    private static final String NAME = "[a-zA-Z_:][a-zA-Z0-9_:]*";
    private static final String LABEL = "[a-zA-Z_][a-zA-Z0-9_]*";
    private static final Pattern HELP = Pattern.compile("# HELP (" + NAME + ") ((?:[^\\\\\\n]|\\\\[\\\\n])*)");
    private static final Pattern TYPE =
            Pattern.compile("# TYPE (" + NAME + ") (counter|gauge|histogram|summary|untyped)");
    private static final Pattern SAMPLE = Pattern.compile("(" + NAME + ")(?:\\{(.*)})? (\\S+)(?: (-?\\d+))?");
    private static final Pattern LABEL_PAIR =
            Pattern.compile("(" + LABEL + ")=\"((?:[^\"\\\\\\n]|\\\\[\\\\\"n])*)\"(,|$)");
    private static final Pattern FLOAT =
            Pattern.compile("[+-]?(?:\\d+\\.?\\d*(?:[eE][+-]?\\d+)?|\\.\\d+(?:[eE][+-]?\\d+)?|Inf|NaN)");

    /** One sample line. */
    record Sample(String name, Map<String, String> labels, double value) {
        String label(String label) {
            return labels.get(label);
        }
    }

    /** A metric family: its HELP, TYPE and samples in order. */
    record Family(String name, String type, String help, List<Sample> samples) {}

    private PrometheusText() {}

    /** The families of {@code text}, by name. @throws AssertionError naming the line that breaks the format */
    static Map<String, Family> parse(String text) {
        if (!text.isEmpty() && !text.endsWith("\n")) {
            throw new AssertionError("the exposition does not end with a newline");
        }
        Map<String, String> helps = new LinkedHashMap<>();
        Map<String, String> types = new LinkedHashMap<>();
        Map<String, List<Sample>> samples = new LinkedHashMap<>();
        Set<String> series = new HashSet<>();
        String current = null;
        String[] lines = text.split("\n", -1);
        for (int i = 0; i < lines.length - 1; i++) {
            String line = lines[i];
            String at = "line " + (i + 1) + " '" + line + "': ";
            if (line.isEmpty()) {
                continue;
            }
            if (line.startsWith("# HELP ")) {
                Matcher help = matches(HELP, line, at);
                require(helps.put(help.group(1), help.group(2)) == null, at + "second HELP");
                require(!samples.containsKey(help.group(1)), at + "HELP after samples");
                continue;
            }
            if (line.startsWith("# TYPE ")) {
                Matcher type = matches(TYPE, line, at);
                require(types.put(type.group(1), type.group(2)) == null, at + "second TYPE");
                require(!samples.containsKey(type.group(1)), at + "TYPE after samples");
                continue;
            }
            if (line.startsWith("#")) {
                continue;
            }
            Matcher sample = matches(SAMPLE, line, at);
            String family = familyOf(sample.group(1), types);
            require(family != null, at + "no TYPE for this sample");
            require(helps.containsKey(family), at + "no HELP for this sample");
            require(family.equals(current) || !samples.containsKey(family), at + "family " + family + " is split");
            current = family;
            Map<String, String> labels = labels(sample.group(2), at);
            require(series.add(sample.group(1) + labels), at + "series written twice");
            require(FLOAT.matcher(sample.group(3)).matches(), at + "bad value");
            samples.computeIfAbsent(family, f -> new ArrayList<>())
                    .add(new Sample(sample.group(1), labels, parseValue(sample.group(3))));
        }
        Map<String, Family> families = new TreeMap<>();
        samples.forEach((name, list) -> families.put(name, new Family(name, types.get(name), helps.get(name), list)));
        families.values().stream().filter(f -> f.type().equals("histogram")).forEach(PrometheusText::checkHistogram);
        return families;
    }

    /** The family a sample belongs to: its own name, or a histogram's or summary's for a suffixed one. */
    private static String familyOf(String sample, Map<String, String> types) {
        if (types.containsKey(sample)) {
            return sample;
        }
        for (String suffix : new String[] {"_bucket", "_sum", "_count"}) {
            if (sample.endsWith(suffix)) {
                String base = sample.substring(0, sample.length() - suffix.length());
                String type = types.get(base);
                if ("histogram".equals(type) || "summary".equals(type) && !suffix.equals("_bucket")) {
                    return base;
                }
            }
        }
        return null;
    }

    private static Map<String, String> labels(String text, String at) {
        Map<String, String> labels = new TreeMap<>();
        if (text == null) {
            return labels;
        }
        Matcher pair = LABEL_PAIR.matcher(text);
        int end = 0;
        while (end < text.length()) {
            require(pair.find(end) && pair.start() == end, at + "bad label list");
            require(labels.put(pair.group(1), pair.group(2)) == null, at + "label " + pair.group(1) + " twice");
            end = pair.end();
        }
        return labels;
    }

    private static void checkHistogram(Family family) {
        Map<Map<String, String>, List<Sample>> buckets = new LinkedHashMap<>();
        Map<Map<String, String>, Double> counts = new LinkedHashMap<>();
        for (Sample sample : family.samples()) {
            Map<String, String> series = new TreeMap<>(sample.labels());
            if (sample.name().endsWith("_bucket")) {
                series.remove("le");
                buckets.computeIfAbsent(series, s -> new ArrayList<>()).add(sample);
            } else if (sample.name().endsWith("_count")) {
                counts.put(series, sample.value());
            }
        }
        buckets.forEach((series, list) -> {
            double previousBound = Double.NEGATIVE_INFINITY;
            double previousCount = 0;
            for (Sample bucket : list) {
                double bound = parseValue(bucket.label("le"));
                require(bound > previousBound, family.name() + series + ": le not increasing");
                require(bucket.value() >= previousCount, family.name() + series + ": buckets not cumulative");
                previousBound = bound;
                previousCount = bucket.value();
            }
            require(previousBound == Double.POSITIVE_INFINITY, family.name() + series + ": no +Inf bucket");
            require(
                    counts.containsKey(series) && counts.get(series) == previousCount,
                    family.name() + series + ": _count is not the +Inf bucket");
        });
    }

    private static double parseValue(String value) {
        return switch (value) {
            case "+Inf", "Inf" -> Double.POSITIVE_INFINITY;
            case "-Inf" -> Double.NEGATIVE_INFINITY;
            case "NaN" -> Double.NaN;
            default -> Double.parseDouble(value);
        };
    }

    private static Matcher matches(Pattern pattern, String line, String at) {
        Matcher matcher = pattern.matcher(line);
        require(matcher.matches(), at + "not valid exposition syntax");
        return matcher;
    }

    private static void require(boolean condition, String problem) {
        if (!condition) {
            throw new AssertionError(problem);
        }
    }
}
