package io.sluice.server.it;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * What a PromQL expression reads, for checking dashboards and alert rules against the metrics
 * Sluice exports: its vector selectors (metric name and label matchers) and the label names its
 * {@code by}, {@code without}, {@code on} and {@code ignoring} clauses group on. A scanner, not an
 * evaluator: enough of the grammar to find those reliably (strings, ranges, offsets, functions,
 * keywords), nothing more.
 */
final class PromQl {

    /** One label matcher: {@code label op "value"}, op one of {@code = != =~ !~}. */
    record Matcher(String label, String op, String value) {}

    /** A vector selector: {@code metric{matchers}}. */
    record Selector(String metric, List<Matcher> matchers) {}

    /**
     * What an expression reads.
     *
     * @param keptLabels the labels of {@code by}, {@code on}, {@code group_left} and {@code group_right} lists
     * @param droppedLabels the labels of {@code without} and {@code ignoring} lists
     */
    record Reads(List<Selector> selectors, Set<String> keptLabels, Set<String> droppedLabels) {

        /** Every label a grouping clause names. */
        Set<String> groupingLabels() {
            Set<String> all = new LinkedHashSet<>(keptLabels);
            all.addAll(droppedLabels);
            return all;
        }

        Set<String> metrics() {
            Set<String> metrics = new LinkedHashSet<>();
            selectors.forEach(s -> metrics.add(s.metric()));
            return metrics;
        }
    }

    private static final Set<String> KEYWORDS = Set.of(
            "by",
            "without",
            "on",
            "ignoring",
            "group_left",
            "group_right",
            "offset",
            "bool",
            "and",
            "or",
            "unless",
            "atan2",
            "inf",
            "nan");
    /** Aggregation operators, whose grouping clause may come between the name and the parenthesis. */
    private static final Set<String> AGGREGATIONS = Set.of(
            "sum",
            "min",
            "max",
            "avg",
            "group",
            "stddev",
            "stdvar",
            "count",
            "count_values",
            "bottomk",
            "topk",
            "quantile",
            "limitk",
            "limit_ratio");

    private static final Set<String> LABEL_LISTS =
            Set.of("by", "without", "on", "ignoring", "group_left", "group_right");

    private final String text;
    private int at;

    private PromQl(String text) {
        this.text = text;
    }

    /** The selectors and grouping labels of {@code expression}. @throws IllegalArgumentException where it cannot scan */
    static Reads read(String expression) {
        return new PromQl(expression).scan();
    }

    private Reads scan() {
        List<Selector> selectors = new ArrayList<>();
        Set<String> kept = new LinkedHashSet<>();
        Set<String> dropped = new LinkedHashSet<>();
        while (true) {
            skipSpace();
            if (at >= text.length()) {
                return new Reads(selectors, kept, dropped);
            }
            char c = text.charAt(at);
            if (c == '"' || c == '\'' || c == '`') {
                string();
            } else if (c == '[') {
                skipPast(']');
            } else if (c == '{') {
                // A selector by matchers only, {__name__="..."}: not used by Sluice's files.
                throw problem("a selector without a metric name");
            } else if (Character.isDigit(c)
                    || c == '.' && at + 1 < text.length() && Character.isDigit(text.charAt(at + 1))) {
                number();
            } else if (isNameStart(c)) {
                String name = name();
                skipSpace();
                boolean call = at < text.length() && text.charAt(at) == '(';
                String lower = name.toLowerCase();
                if (LABEL_LISTS.contains(lower)) {
                    if (call) {
                        (lower.equals("without") || lower.equals("ignoring") ? dropped : kept).addAll(labelList());
                    }
                } else if (lower.equals("offset")) {
                    skipSpace();
                    number();
                } else if (KEYWORDS.contains(lower) || AGGREGATIONS.contains(lower) || call) {
                    // A function, an aggregation or an operator keyword: its arguments are scanned as they come.
                    continue;
                } else {
                    selectors.add(
                            new Selector(name, at < text.length() && text.charAt(at) == '{' ? matchers() : List.of()));
                }
            } else {
                at++;
            }
        }
    }

    private List<String> labelList() {
        at++;
        List<String> labels = new ArrayList<>();
        while (true) {
            skipSpace();
            if (at >= text.length()) {
                throw problem("unclosed label list");
            }
            char c = text.charAt(at);
            if (c == ')') {
                at++;
                return labels;
            }
            if (c == ',') {
                at++;
            } else if (isNameStart(c)) {
                labels.add(name());
            } else {
                throw problem("unexpected '" + c + "' in a label list");
            }
        }
    }

    private List<Matcher> matchers() {
        at++;
        List<Matcher> matchers = new ArrayList<>();
        while (true) {
            skipSpace();
            if (at >= text.length()) {
                throw problem("unclosed selector");
            }
            char c = text.charAt(at);
            if (c == '}') {
                at++;
                return matchers;
            }
            if (c == ',') {
                at++;
                continue;
            }
            String label = name();
            skipSpace();
            String op = operator();
            skipSpace();
            matchers.add(new Matcher(label, op, string()));
        }
    }

    private String operator() {
        for (String op : new String[] {"=~", "!~", "!=", "="}) {
            if (text.startsWith(op, at)) {
                at += op.length();
                return op;
            }
        }
        throw problem("expected a matcher operator");
    }

    /** A quoted string's value, escapes resolved the way PromQL's double-quoted strings do for the characters used here. */
    private String string() {
        char quote = text.charAt(at);
        if (quote != '"' && quote != '\'' && quote != '`') {
            throw problem("expected a string");
        }
        StringBuilder value = new StringBuilder();
        at++;
        while (at < text.length()) {
            char c = text.charAt(at++);
            if (c == quote) {
                return value.toString();
            }
            if (c == '\\' && quote != '`' && at < text.length()) {
                value.append(text.charAt(at++));
            } else {
                value.append(c);
            }
        }
        throw problem("unclosed string");
    }

    private void number() {
        while (at < text.length()
                && (Character.isLetterOrDigit(text.charAt(at))
                        || text.charAt(at) == '.'
                        || (text.charAt(at) == '+' || text.charAt(at) == '-')
                                && (text.charAt(at - 1) == 'e' || text.charAt(at - 1) == 'E'))) {
            at++;
        }
    }

    private String name() {
        int start = at;
        while (at < text.length() && (isNameStart(text.charAt(at)) || Character.isDigit(text.charAt(at)))) {
            at++;
        }
        if (start == at) {
            throw problem("expected a name");
        }
        return text.substring(start, at);
    }

    private void skipPast(char close) {
        int end = text.indexOf(close, at);
        if (end < 0) {
            throw problem("no closing '" + close + "'");
        }
        at = end + 1;
    }

    private void skipSpace() {
        while (at < text.length() && Character.isWhitespace(text.charAt(at))) {
            at++;
        }
    }

    private static boolean isNameStart(char c) {
        return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_' || c == ':';
    }

    private IllegalArgumentException problem(String what) {
        return new IllegalArgumentException(what + " at offset " + at + " of: " + text);
    }
}
