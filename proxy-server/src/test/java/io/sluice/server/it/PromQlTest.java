package io.sluice.server.it;

import io.sluice.server.it.PromQl.Matcher;
import io.sluice.server.it.PromQl.Reads;
import io.sluice.server.it.PromQl.Selector;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** The scanner MonitoringContractIT relies on finds every selector and grouping label, and nothing else. */
class PromQlTest {

    @Test
    void findsSelectorsInsideFunctionsAndAggregations() {
        Reads reads =
                PromQl.read("histogram_quantile(0.99, sum by (le, scope) (rate(sluice_throttle_delay_seconds_bucket"
                        + "{instance=~\"$instance\"}[$__rate_interval])))");
        assertEquals(
                List.of(new Selector(
                        "sluice_throttle_delay_seconds_bucket", List.of(new Matcher("instance", "=~", "$instance")))),
                reads.selectors());
        assertEquals(Set.of("le", "scope"), reads.groupingLabels());
    }

    @Test
    void findsBothSidesOfBinaryOperatorsAndGroupingAfterTheAggregation() {
        Reads reads = PromQl.read("sum(rate(a_total{x=\"1\", y!=\"2\"}[5m] offset 1h)) without (z) > 0.8 * 67108864\n"
                + "or on (instance) group_left (pod) max(b{w!~\"a|b\"}) unless c");
        assertEquals(
                List.of("a_total", "b", "c"),
                reads.selectors().stream().map(Selector::metric).toList());
        assertEquals(
                List.of(new Matcher("x", "=", "1"), new Matcher("y", "!=", "2")),
                reads.selectors().get(0).matchers());
        assertEquals(
                List.of(new Matcher("w", "!~", "a|b")), reads.selectors().get(1).matchers());
        assertEquals(Set.of("z", "instance", "pod"), reads.groupingLabels());
    }

    @Test
    void stringsAndNumbersAreNotSelectors() {
        Reads reads =
                PromQl.read("label_replace(up{job=\"sluice\"} == 0, \"dst\", \"$1\", \"src\", \"(.*)\") + 1e3 - .5");
        assertEquals(
                List.of("up"), reads.selectors().stream().map(Selector::metric).toList());
        assertEquals(Set.of(), reads.groupingLabels());
    }

    @Test
    void escapedQuotesStayInsideTheirValue() {
        Reads reads = PromQl.read("m{reason=\"a \\\"quoted\\\" b\"}");
        assertEquals(
                "a \"quoted\" b", reads.selectors().get(0).matchers().get(0).value());
    }

    @Test
    void anUnclosedSelectorIsAnError() {
        assertThrows(IllegalArgumentException.class, () -> PromQl.read("sum(m{a=\"b\")"));
    }
}
