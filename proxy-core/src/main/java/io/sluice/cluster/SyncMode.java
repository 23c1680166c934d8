package io.sluice.cluster;

import java.util.Locale;

/** How current this Sluice's shares of the cluster-wide limits are. */
public enum SyncMode {
    /** Not part of a cluster: every limit is this Sluice's alone. */
    STANDALONE,
    /** The last sync reached the store: shares follow everyone's demand. */
    SYNCED,
    /** The store has not answered for less than three intervals: the last shares stay. */
    STALE,
    /** The store has not answered for three intervals or more: each limit is split evenly among the Sluices last seen. */
    FALLBACK;

    /** {@code synced}, {@code stale}...: the form of the API and the docs. */
    public String jsonName() {
        return name().toLowerCase(Locale.ROOT);
    }
}
