package io.sluice.admin.metrics;

import io.prometheus.metrics.model.registry.MultiCollector;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot.GaugeDataPointSnapshot;
import io.prometheus.metrics.model.snapshots.Labels;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import io.sluice.adaptive.AdaptiveScope;

import java.util.List;
import java.util.function.Supplier;

/**
 * The adaptive limits' figures (docs/REFERENCE.md, "Metrics"), from the controller's last interval:
 * {@code sluice_adaptive_rate} (the rate in force, per second, for all Sluices together) and
 * {@code sluice_adaptive_ceiling} (the configured rate) for each adaptive scope, and
 * {@code sluice_adaptive_latency_p99_seconds} (the upstream latency the rate followed). Nothing
 * without adaptive limits.
 */
public final class AdaptiveCollector implements MultiCollector {

    private final Supplier<List<AdaptiveScope>> status;

    public AdaptiveCollector(Supplier<List<AdaptiveScope>> status) {
        this.status = status;
    }

    @Override
    public MetricSnapshots collect() {
        List<AdaptiveScope> scopes = status.get();
        if (scopes.isEmpty()) {
            return MetricSnapshots.of();
        }
        GaugeSnapshot.Builder rate = GaugeSnapshot.builder()
                .name("sluice_adaptive_rate")
                .help("The rate an adaptive limit holds its scope to now, per second, for all Sluices together");
        GaugeSnapshot.Builder ceiling = GaugeSnapshot.builder()
                .name("sluice_adaptive_ceiling")
                .help("The configured rate of an adaptive limit, per second: the most the adapted rate climbs to");
        GaugeSnapshot.Builder latency = GaugeSnapshot.builder()
                .name("sluice_adaptive_latency_p99_seconds")
                .help("The upstream p99 publish latency an adaptive limit followed in its last interval");
        GaugeSnapshot.Builder target = GaugeSnapshot.builder()
                .name("sluice_adaptive_target_seconds")
                .help("The upstream p99 publish latency an adaptive limit holds to");
        for (AdaptiveScope scope : scopes) {
            Labels labels = Labels.of(
                    "protocol", scope.protocol(), "scope", scope.scope(), "name", scope.name(), "unit", scope.unit());
            rate.dataPoint(GaugeDataPointSnapshot.builder()
                    .labels(labels)
                    .value(scope.effectiveRate())
                    .build());
            ceiling.dataPoint(GaugeDataPointSnapshot.builder()
                    .labels(labels)
                    .value(scope.ceiling())
                    .build());
            target.dataPoint(GaugeDataPointSnapshot.builder()
                    .labels(labels)
                    .value(scope.targetLatencyMillis() / 1e3)
                    .build());
            if (scope.latencyP99Millis() != null) {
                latency.dataPoint(GaugeDataPointSnapshot.builder()
                        .labels(labels)
                        .value(scope.latencyP99Millis() / 1e3)
                        .build());
            }
        }
        return MetricSnapshots.of(rate.build(), ceiling.build(), latency.build(), target.build());
    }
}
