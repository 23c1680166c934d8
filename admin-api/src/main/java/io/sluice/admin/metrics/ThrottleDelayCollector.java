package io.sluice.admin.metrics;

import io.prometheus.metrics.model.registry.Collector;
import io.prometheus.metrics.model.snapshots.ClassicHistogramBuckets;
import io.prometheus.metrics.model.snapshots.HistogramSnapshot;
import io.prometheus.metrics.model.snapshots.HistogramSnapshot.HistogramDataPointSnapshot;
import io.prometheus.metrics.model.snapshots.Labels;
import io.prometheus.metrics.model.snapshots.MetricSnapshot;
import io.sluice.status.DelayHistogram;
import io.sluice.status.ThrottleLedger;

import java.util.Arrays;

/** {@code sluice_throttle_delay_seconds}: the ledger's delay histograms, one series per scope. */
public final class ThrottleDelayCollector implements Collector {

    /** {@link DelayHistogram#BOUNDS} plus the +Inf bucket the core keeps implicitly. */
    private static final double[] UPPER_BOUNDS = withInfinity(DelayHistogram.BOUNDS);

    private final ThrottleLedger ledger;

    public ThrottleDelayCollector(ThrottleLedger ledger) {
        this.ledger = ledger;
    }

    @Override
    public MetricSnapshot collect() {
        HistogramSnapshot.Builder family = HistogramSnapshot.builder()
                .name("sluice_throttle_delay_seconds")
                .help("How long held sends waited in the proxy before release, by the scope that held them");
        ledger.delays()
                .forEach((scope, histogram) -> family.dataPoint(HistogramDataPointSnapshot.builder()
                        .classicHistogramBuckets(ClassicHistogramBuckets.of(UPPER_BOUNDS, histogram.counts()))
                        .sum(histogram.sumSeconds())
                        .labels(Labels.of("scope", scope))
                        .build()));
        return family.build();
    }

    private static double[] withInfinity(double[] bounds) {
        double[] all = Arrays.copyOf(bounds, bounds.length + 1);
        all[bounds.length] = Double.POSITIVE_INFINITY;
        return all;
    }
}
