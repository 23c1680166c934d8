package io.sluice.cluster;

import java.util.Objects;

/**
 * One Sluice's latest live report about one bucket, as the store hands it back.
 *
 * @param member the reporting Sluice
 * @param demand its report
 */
public record MemberDemand(String member, Demand demand) {

    public MemberDemand {
        Objects.requireNonNull(member, "member");
        Objects.requireNonNull(demand, "demand");
    }
}
