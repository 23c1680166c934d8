package io.sluice.limits;

import java.io.IOException;
import java.util.Optional;

/**
 * A limits document kept where every Sluice of a cluster reads it ({@code --limits-source store}),
 * versioned and written with a compare-and-set, so that two Sluices changing limits at once never
 * lose a change. Implementations live outside the engine (Redis: the cluster-redis module).
 */
public interface SharedLimits {

    /**
     * The document in the store.
     *
     * @return empty when the store holds none
     * @throws IOException when the store cannot be reached
     */
    Optional<VersionedLimits> read() throws IOException;

    /**
     * Stores {@code json} as version {@code next} if the store's version is {@code expected}.
     *
     * @param expected the version the change was based on; 0 for "the store holds none"
     * @return whether it was stored; false when the store holds another version
     * @throws IOException when the store cannot be reached
     */
    boolean compareAndSet(long expected, long next, String json) throws IOException;
}
