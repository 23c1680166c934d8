package io.sluice.admin.metrics;

import io.prometheus.metrics.model.registry.MultiCollector;
import io.prometheus.metrics.model.snapshots.CounterSnapshot;
import io.prometheus.metrics.model.snapshots.CounterSnapshot.CounterDataPointSnapshot;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;

import java.util.function.LongSupplier;

/**
 * {@code sluice_log_events_dropped_total}: log events the logging backend dropped because its
 * queue was full (it never makes the thread that logs wait).
 */
public final class LogDropsCollector implements MultiCollector {

    private final LongSupplier dropped;

    public LogDropsCollector(LongSupplier dropped) {
        this.dropped = dropped;
    }

    @Override
    public MetricSnapshots collect() {
        return MetricSnapshots.of(CounterSnapshot.builder()
                .name("sluice_log_events_dropped")
                .help("Log events dropped because the log's queue was full")
                .dataPoint(CounterDataPointSnapshot.builder()
                        .value(dropped.getAsLong())
                        .build())
                .build());
    }
}
