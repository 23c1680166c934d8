package io.sluice.bench.sidebyside;

import java.util.List;
import java.util.function.ToDoubleFunction;

/** The median of one figure over the rounds of a measurement: what the suite's tables report. */
final class Median {

    private Median() {}

    /** The median of {@code figure} over {@code runs}; the mean of the middle two for an even count. */
    static <T> double of(List<T> runs, ToDoubleFunction<T> figure) {
        double[] values = runs.stream().mapToDouble(figure).sorted().toArray();
        int n = values.length;
        if (n == 0) {
            return Double.NaN;
        }
        return n % 2 == 1 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
    }
}
