package io.sluice.cluster;

import java.util.List;
import java.util.Map;

/**
 * What the store answers a {@link SyncRequest}, read in the same round trip as the request was
 * written.
 *
 * @param demands for each bucket of the request, the live reports of every Sluice that enforces
 *     it, the asking one's included
 * @param members every Sluice the store heard from within the last three intervals
 * @param limitsVersion the version of the limits document kept in the store, or 0 when it keeps none
 */
public record SyncReply(Map<String, List<MemberDemand>> demands, List<MemberSeen> members, long limitsVersion) {

    public SyncReply {
        demands = Map.copyOf(demands);
        members = List.copyOf(members);
    }
}
