package io.sluice.cluster;

import io.sluice.quota.BucketKey;

import java.util.Objects;

/**
 * This Sluice's part of one cluster-wide limit.
 *
 * @param key the limited bucket
 * @param limit the limit, for all Sluices together, per second
 * @param share the part of it this Sluice enforces, more than 0 and at most 1
 * @param members how many Sluices enforce it, as last seen (1 when this one is alone)
 */
public record BucketShare(BucketKey key, double limit, double share, int members) {

    public BucketShare {
        Objects.requireNonNull(key, "key");
    }
}
