package io.sluice.admin.metrics;

import io.prometheus.metrics.model.registry.MultiCollector;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot.GaugeDataPointSnapshot;
import io.prometheus.metrics.model.snapshots.Labels;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import io.sluice.cluster.BucketShare;
import io.sluice.cluster.ClusterStatus;
import io.sluice.cluster.SyncMode;
import io.sluice.quota.BucketKey;

import java.util.Locale;
import java.util.function.Supplier;

/**
 * The cluster's figures (docs/REFERENCE.md, "Metrics"), from one status per scrape:
 * {@code sluice_cluster_store_up}, {@code sluice_cluster_members} and {@code sluice_cluster_share}
 * (this Sluice's part of each limit, 0 to 1). Nothing when Sluice shares no limits.
 */
public final class ClusterCollector implements MultiCollector {

    private final Supplier<ClusterStatus> status;

    public ClusterCollector(Supplier<ClusterStatus> status) {
        this.status = status;
    }

    @Override
    public MetricSnapshots collect() {
        ClusterStatus now = status.get();
        if (now.mode() == SyncMode.STANDALONE) {
            return MetricSnapshots.of();
        }
        GaugeSnapshot up = GaugeSnapshot.builder()
                .name("sluice_cluster_store_up")
                .help("1 when the last sync reached the cluster store, else 0")
                .dataPoint(GaugeDataPointSnapshot.builder()
                        .value(now.storeUp() ? 1 : 0)
                        .build())
                .build();
        GaugeSnapshot members = GaugeSnapshot.builder()
                .name("sluice_cluster_members")
                .help("Sluices of this cluster id seen in the last successful sync, this one included")
                .dataPoint(GaugeDataPointSnapshot.builder()
                        .value(now.members().size())
                        .build())
                .build();
        GaugeSnapshot.Builder shares = GaugeSnapshot.builder()
                .name("sluice_cluster_share")
                .help("This Sluice's part of a cluster-wide limit, 0 to 1; its rate is the limit times this");
        for (BucketShare share : now.shares()) {
            BucketKey key = share.key();
            String protocol = key.scope().kind().protocol();
            shares.dataPoint(GaugeDataPointSnapshot.builder()
                    .labels(Labels.of(
                            "protocol",
                            protocol == null ? "" : protocol,
                            "scope",
                            key.scope().kind().label(),
                            "name",
                            key.scope().name(),
                            "direction",
                            key.direction().name().toLowerCase(Locale.ROOT),
                            "dimension",
                            key.dimension().name().toLowerCase(Locale.ROOT)))
                    .value(share.share())
                    .build());
        }
        return MetricSnapshots.of(up, members, shares.build());
    }
}
