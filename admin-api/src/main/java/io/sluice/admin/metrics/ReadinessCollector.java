package io.sluice.admin.metrics;

import io.prometheus.metrics.model.registry.MultiCollector;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot.GaugeDataPointSnapshot;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;

import java.util.function.BooleanSupplier;

/** {@code sluice_ready}: 1 while {@code /readyz} answers 200, 0 while it answers 503, for alerts. */
public final class ReadinessCollector implements MultiCollector {

    private final BooleanSupplier ready;

    public ReadinessCollector(BooleanSupplier ready) {
        this.ready = ready;
    }

    @Override
    public MetricSnapshots collect() {
        return MetricSnapshots.of(GaugeSnapshot.builder()
                .name("sluice_ready")
                .help("1 while /readyz answers 200 (front ends listening, upstreams reachable, not draining), else 0")
                .dataPoint(GaugeDataPointSnapshot.builder()
                        .value(ready.getAsBoolean() ? 1 : 0)
                        .build())
                .build());
    }
}
