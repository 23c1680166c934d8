package io.sluice.admin.metrics;

import io.prometheus.metrics.model.registry.MultiCollector;
import io.prometheus.metrics.model.snapshots.CounterSnapshot;
import io.prometheus.metrics.model.snapshots.CounterSnapshot.CounterDataPointSnapshot;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot.GaugeDataPointSnapshot;
import io.prometheus.metrics.model.snapshots.Labels;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import io.sluice.relay.ProxyStats;

import java.util.List;
import java.util.function.LongSupplier;

/**
 * The front ends' connection figures, each series labelled with its front end's {@code protocol}:
 * {@code sluice_connections}, {@code sluice_protocol_errors_total} (by reason),
 * {@code sluice_connections_refused_total} (by reason),
 * {@code sluice_upstream_connect_failures_total}, {@code sluice_client_bytes_total} (by direction)
 * and {@code sluice_requests_total} (by request kind, for front ends that count them); and
 * {@code sluice_tls_reload_failures_total}, the process's total without a protocol label, since
 * the front ends and the admin port share the certificate files.
 */
public final class ProxyStatsCollector implements MultiCollector {

    private final List<ProxyStats> frontEnds;
    private final LongSupplier tlsReloadFailures;

    /** @param tlsReloadFailures the process's failed reloads of TLS files, each counted once */
    public ProxyStatsCollector(List<ProxyStats> frontEnds, LongSupplier tlsReloadFailures) {
        this.frontEnds = List.copyOf(frontEnds);
        this.tlsReloadFailures = tlsReloadFailures;
    }

    @Override
    public MetricSnapshots collect() {
        GaugeSnapshot.Builder connections =
                GaugeSnapshot.builder().name("sluice_connections").help("Client connections open now");
        CounterSnapshot.Builder protocolErrors = CounterSnapshot.builder()
                .name("sluice_protocol_errors")
                .help("Client connections closed for malformed input, by reason");
        CounterSnapshot.Builder refused = CounterSnapshot.builder()
                .name("sluice_connections_refused")
                .help("Client connections closed as soon as they were accepted, by reason (max_connections)");
        CounterSnapshot.Builder connectFailures = CounterSnapshot.builder()
                .name("sluice_upstream_connect_failures")
                .help("Failed attempts to connect to an upstream broker");
        CounterSnapshot.Builder bytes = CounterSnapshot.builder()
                .name("sluice_client_bytes")
                .help("Bytes received from clients (direction in) and sent to them (direction out)");
        CounterSnapshot.Builder requests = CounterSnapshot.builder()
                .name("sluice_requests")
                .help("Requests received from clients, by kind (the Kafka API)");
        for (ProxyStats stats : frontEnds) {
            Labels protocol = Labels.of("protocol", stats.protocol());
            connections.dataPoint(GaugeDataPointSnapshot.builder()
                    .labels(protocol)
                    .value(stats.openConnections())
                    .build());
            stats.protocolErrors()
                    .forEach((reason, count) -> protocolErrors.dataPoint(CounterDataPointSnapshot.builder()
                            .labels(Labels.of("protocol", stats.protocol(), "reason", reason))
                            .value(count)
                            .build()));
            stats.refusedConnections()
                    .forEach((reason, count) -> refused.dataPoint(CounterDataPointSnapshot.builder()
                            .labels(Labels.of("protocol", stats.protocol(), "reason", reason))
                            .value(count)
                            .build()));
            connectFailures.dataPoint(CounterDataPointSnapshot.builder()
                    .labels(protocol)
                    .value(stats.upstreamConnectFailures())
                    .build());
            bytes.dataPoint(CounterDataPointSnapshot.builder()
                    .labels(Labels.of("direction", "in", "protocol", stats.protocol()))
                    .value(stats.bytesFromClients())
                    .build());
            bytes.dataPoint(CounterDataPointSnapshot.builder()
                    .labels(Labels.of("direction", "out", "protocol", stats.protocol()))
                    .value(stats.bytesToClients())
                    .build());
            stats.requests()
                    .forEach((kind, count) -> requests.dataPoint(CounterDataPointSnapshot.builder()
                            .labels(Labels.of("api", kind, "protocol", stats.protocol()))
                            .value(count)
                            .build()));
        }
        CounterSnapshot tlsReloads = CounterSnapshot.builder()
                .name("sluice_tls_reload_failures")
                .help("Changed certificate, key or CA files that could not be used; the ones in use were kept")
                .dataPoint(CounterDataPointSnapshot.builder()
                        .value(tlsReloadFailures.getAsLong())
                        .build())
                .build();
        return MetricSnapshots.of(
                connections.build(),
                protocolErrors.build(),
                refused.build(),
                connectFailures.build(),
                bytes.build(),
                requests.build(),
                tlsReloads);
    }
}
