package io.sluice.cluster;

import java.util.Map;
import java.util.Objects;

/**
 * What one Sluice sends the store in one sync: that it is alive, and its demand for each bucket
 * it enforces.
 *
 * @param member its name, unique among the Sluices of one cluster id
 * @param demands its reports, by {@link io.sluice.quota.BucketKey#id()}
 */
public record SyncRequest(String member, Map<String, Demand> demands) {

    public SyncRequest {
        Objects.requireNonNull(member, "member");
        demands = Map.copyOf(demands);
    }
}
