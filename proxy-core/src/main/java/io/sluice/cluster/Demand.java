package io.sluice.cluster;

/**
 * What one Sluice reports about one limited bucket every sync interval, in the bucket's units
 * (messages or bytes) per second.
 *
 * @param usage what it let through over the last interval
 * @param demand what it would have let through if it could: its usage when its bucket never
 *     refused, more when it did (an estimate, since held or rejected traffic does not say how
 *     much more there was)
 */
public record Demand(double usage, double demand) {

    public Demand {
        if (!(usage >= 0) || !(demand >= usage) || Double.isInfinite(demand)) {
            throw new IllegalArgumentException("need 0 <= usage <= demand < infinity, got " + usage + " and " + demand);
        }
    }

    /** Whether it wanted more than it got. */
    public boolean wantsMore() {
        return demand > usage;
    }
}
