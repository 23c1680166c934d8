package io.sluice.bench.sidebyside;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Sets one run's {@code results.json} against another's and flags every figure that got worse by
 * more than a threshold: the regression guard to run before a release ({@code bench/compare.sh}).
 *
 * <p>By default only ratios are compared (Sluice against direct or against Apache Pulsar's proxy,
 * measured side by side in one run), which are what survives a shared, noisy machine; {@code --all}
 * compares the absolute figures too. A change smaller than a figure's own noise floor (in
 * {@code results.json}) is never a regression, so that 0.00 % against 0.01 % is not one.
 *
 * <pre>
 * CompareResults BASELINE.json CANDIDATE.json [--threshold PERCENT] [--all]
 * </pre>
 * Exits 0 when nothing regressed, 1 when something did, 2 on bad arguments.
 */
public final class CompareResults {

    /** Percent worse that counts as a regression unless told otherwise. */
    static final double DEFAULT_THRESHOLD_PERCENT = 10;

    /** One figure present in both runs. */
    record Comparison(
            ResultFile.Figure baseline, ResultFile.Figure candidate, double changePercent, boolean regressed) {}

    private CompareResults() {}

    public static void main(String[] args) {
        System.exit(run(args, System.out, System.err));
    }

    /** The command line; returns the exit code. */
    static int run(String[] args, PrintStream out, PrintStream err) {
        List<String> files = new ArrayList<>();
        double threshold = DEFAULT_THRESHOLD_PERCENT;
        boolean all = false;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--all" -> all = true;
                case "--threshold" -> {
                    if (i + 1 == args.length) {
                        err.println("--threshold needs a percentage");
                        return 2;
                    }
                    try {
                        threshold = Double.parseDouble(args[++i]);
                    } catch (NumberFormatException e) {
                        err.println("--threshold needs a percentage, got '" + args[i] + "'");
                        return 2;
                    }
                }
                default -> files.add(args[i]);
            }
        }
        if (files.size() != 2) {
            err.println("usage: CompareResults BASELINE.json CANDIDATE.json [--threshold PERCENT] [--all]");
            return 2;
        }
        ResultFile.Content baseline = ResultFile.read(Path.of(files.get(0)));
        ResultFile.Content candidate = ResultFile.read(Path.of(files.get(1)));
        List<Comparison> comparisons = compare(baseline.figures(), candidate.figures(), threshold, all);
        print(comparisons, threshold, out);
        long regressions = comparisons.stream().filter(Comparison::regressed).count();
        out.printf(
                "%d figures compared, %d regressed by more than %.1f %%%n", comparisons.size(), regressions, threshold);
        return regressions == 0 ? 0 : 1;
    }

    /** The figures both runs have (ratios only unless {@code all}), each with its change and whether it regressed. */
    static List<Comparison> compare(
            List<ResultFile.Figure> baseline, List<ResultFile.Figure> candidate, double thresholdPercent, boolean all) {
        Map<String, ResultFile.Figure> before = new LinkedHashMap<>();
        baseline.forEach(f -> before.put(f.key(), f));
        List<Comparison> comparisons = new ArrayList<>();
        for (ResultFile.Figure now : candidate) {
            ResultFile.Figure then = before.get(now.key());
            if (then == null || !(all || now.ratio())) {
                continue;
            }
            double worse = now.higherIsBetter() ? then.value() - now.value() : now.value() - then.value();
            double changePercent = then.value() == 0 ? 0 : 100 * (now.value() - then.value()) / Math.abs(then.value());
            double worsePercent = then.value() == 0
                    ? (worse > 0 ? Double.POSITIVE_INFINITY : 0)
                    : 100 * worse / Math.abs(then.value());
            boolean regressed = worse > now.noise() && worsePercent > thresholdPercent;
            comparisons.add(new Comparison(then, now, changePercent, regressed));
        }
        return comparisons;
    }

    private static void print(List<Comparison> comparisons, double threshold, PrintStream out) {
        MarkdownTable table = new MarkdownTable(
                "scenario",
                "workload",
                "contender",
                "figure",
                "baseline",
                "candidate",
                "change %",
                "better",
                "verdict");
        for (Comparison c : comparisons) {
            ResultFile.Figure f = c.candidate();
            table.row(
                    f.scenario(),
                    f.workload(),
                    f.contender(),
                    f.metric(),
                    MarkdownTable.num(c.baseline().value(), 3),
                    MarkdownTable.num(f.value(), 3),
                    MarkdownTable.num(c.changePercent(), 1),
                    f.better(),
                    c.regressed() ? "REGRESSED (over " + MarkdownTable.num(threshold, 1) + " % worse)" : "ok");
        }
        out.print(table);
    }
}
