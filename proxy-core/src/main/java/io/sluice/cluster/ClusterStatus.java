package io.sluice.cluster;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Objects;

/**
 * How this Sluice takes part in its cluster, for the admin API and the metrics.
 *
 * @param clusterId the store's key prefix that the Sluices sharing limits have in common
 * @param member this Sluice's name in the cluster
 * @param mode how current its shares are
 * @param storeUp whether the last sync reached the store
 * @param lastSync when a sync last reached the store; {@code null} if none has yet
 * @param syncInterval how often it syncs
 * @param members the Sluices seen in the last successful sync
 * @param shares its share of each limit it enforces
 */
public record ClusterStatus(
        String clusterId,
        String member,
        SyncMode mode,
        boolean storeUp,
        Instant lastSync,
        Duration syncInterval,
        List<MemberSeen> members,
        List<BucketShare> shares) {

    public ClusterStatus {
        Objects.requireNonNull(mode, "mode");
        members = List.copyOf(members);
        shares = List.copyOf(shares);
    }

    /** The status of a Sluice that shares no limits. */
    public static ClusterStatus standalone() {
        return new ClusterStatus(null, null, SyncMode.STANDALONE, false, null, null, List.of(), List.of());
    }
}
