package io.sluice.redis;

import java.util.Objects;

/**
 * The names of Sluice's keys in Redis, all prefixed by the cluster id: Sluices with the same id
 * share limits, Sluices with another id in the same Redis do not see them. Documented in
 * docs/REFERENCE.md, "Cluster".
 */
final class RedisKeys {

    private final String prefix;

    RedisKeys(String clusterId) {
        this.prefix = Objects.requireNonNull(clusterId, "clusterId") + ":";
    }

    /** Who synced lately: member -> last seen. */
    String members() {
        return prefix + "members";
    }

    /** The shared limits document and its version; the only key without a TTL. */
    String limits() {
        return prefix + "limits";
    }

    /** Everyone's demand for one bucket: member -> report. */
    String demand(String bucketId) {
        return prefix + "demand:" + bucketId;
    }
}
