package io.sluice.cluster;

import java.io.IOException;

/**
 * Where Sluices that share limits meet: each reports its demand and reads everyone's, in one
 * round trip per sync interval. The store forgets on its own whoever stops reporting (after
 * three intervals) and everything once nobody reports. Implementations live outside the engine
 * (Redis: the cluster-redis module); tests use one in memory.
 */
public interface ClusterStore extends AutoCloseable {

    /**
     * Writes this Sluice's report and reads back what every live Sluice reported for the same
     * buckets, in one round trip.
     *
     * @throws IOException when the store cannot be reached or does not answer in time; the caller
     *     keeps deciding with what it has
     */
    SyncReply exchange(SyncRequest request) throws IOException;

    @Override
    void close();
}
