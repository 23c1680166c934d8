package io.sluice.cluster;

import java.util.Objects;

/**
 * A Sluice the store has heard from within the last three sync intervals.
 *
 * @param member its name
 * @param lastSeenMillisAgo how long ago, by the store's clock, it last synced
 */
public record MemberSeen(String member, long lastSeenMillisAgo) {

    public MemberSeen {
        Objects.requireNonNull(member, "member");
    }
}
