package io.sluice.admin.cluster;

import io.netty.handler.codec.http.HttpResponseStatus;
import io.sluice.admin.http.ApiRequest;
import io.sluice.admin.http.ApiResponse;
import io.sluice.cluster.BucketShare;
import io.sluice.cluster.ClusterStatus;
import io.sluice.cluster.MemberSeen;
import io.sluice.limits.LimitsStore;

import java.util.List;
import java.util.Locale;
import java.util.function.Supplier;

/**
 * {@code GET /api/v1/cluster} (docs/REFERENCE.md, "Cluster"): whether this Sluice shares its limits
 * with others, how current its shares are ({@code synced}, {@code stale}, {@code fallback}, or
 * {@code standalone} without a cluster store), the Sluices seen, and its share of each limit.
 */
public final class ClusterResource {

    private final Supplier<ClusterStatus> status;
    private final LimitsStore limits;

    public ClusterResource(Supplier<ClusterStatus> status, LimitsStore limits) {
        this.status = status;
        this.limits = limits;
    }

    public ApiResponse get(ApiRequest request) {
        ClusterStatus now = status.get();
        List<Share> shares = now.shares().stream().map(Share::of).toList();
        return ApiResponse.json(
                HttpResponseStatus.OK,
                new Body(
                        now.mode().jsonName(),
                        now.clusterId(),
                        now.member(),
                        now.clusterId() == null ? null : now.storeUp(),
                        now.lastSync() == null ? null : now.lastSync().toString(),
                        now.syncInterval() == null ? null : now.syncInterval().toMillis(),
                        limits.isShared() ? "store" : "file",
                        limits.isShared() ? limits.version() : null,
                        now.members(),
                        shares));
    }

    /** The JSON body; absent fields are left out. */
    record Body(
            String mode,
            String clusterId,
            String member,
            Boolean storeUp,
            String lastSync,
            Long syncIntervalMillis,
            String limitsSource,
            Long limitsVersion,
            List<MemberSeen> members,
            List<Share> shares) {}

    /** One limit's share, with the names the metrics use. */
    record Share(
            String protocol,
            String scope,
            String name,
            String direction,
            String dimension,
            double limit,
            double share,
            double rate,
            int members) {

        static Share of(BucketShare share) {
            var key = share.key();
            return new Share(
                    key.scope().kind().protocol(),
                    key.scope().kind().label(),
                    key.scope().name(),
                    key.direction().name().toLowerCase(Locale.ROOT),
                    key.dimension().name().toLowerCase(Locale.ROOT),
                    share.limit(),
                    share.share(),
                    share.limit() * share.share(),
                    share.members());
        }
    }
}
