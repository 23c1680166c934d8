package io.sluice.admin.metrics;

import io.prometheus.metrics.model.registry.MultiCollector;
import io.prometheus.metrics.model.snapshots.CounterSnapshot;
import io.prometheus.metrics.model.snapshots.CounterSnapshot.CounterDataPointSnapshot;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot.GaugeDataPointSnapshot;
import io.prometheus.metrics.model.snapshots.Labels;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import io.sluice.relay.ProxyStats;

/**
 * The proxy's connection figures: {@code sluice_connections}, {@code sluice_protocol_errors_total}
 * (by reason), {@code sluice_upstream_connect_failures_total} and
 * {@code sluice_tls_reload_failures_total}.
 */
public final class ProxyStatsCollector implements MultiCollector {

    private final ProxyStats stats;

    public ProxyStatsCollector(ProxyStats stats) {
        this.stats = stats;
    }

    @Override
    public MetricSnapshots collect() {
        CounterSnapshot.Builder protocolErrors = CounterSnapshot.builder().name("sluice_protocol_errors")
                .help("Client connections closed for malformed input, by reason");
        stats.protocolErrors().forEach((reason, count) -> protocolErrors.dataPoint(CounterDataPointSnapshot.builder()
                .labels(Labels.of("reason", reason)).value(count).build()));
        return MetricSnapshots.of(
                GaugeSnapshot.builder().name("sluice_connections").help("Client connections open now")
                        .dataPoint(GaugeDataPointSnapshot.builder().value(stats.openConnections()).build())
                        .build(),
                protocolErrors.build(),
                CounterSnapshot.builder().name("sluice_upstream_connect_failures")
                        .help("Failed attempts to connect to an upstream broker")
                        .dataPoint(CounterDataPointSnapshot.builder().value(stats.upstreamConnectFailures()).build())
                        .build(),
                CounterSnapshot.builder().name("sluice_tls_reload_failures")
                        .help("Changed certificate, key or CA files that could not be used; the ones in use were kept")
                        .dataPoint(CounterDataPointSnapshot.builder().value(stats.tlsReloadFailures()).build())
                        .build());
    }
}
