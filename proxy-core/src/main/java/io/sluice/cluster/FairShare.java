package io.sluice.cluster;

import java.util.Arrays;
import java.util.List;

/**
 * Splits one limit among the Sluices that enforce it, from their demands; every Sluice runs it
 * on the same reports, so no leader is needed and the shares add up to the limit.
 *
 * <ul>
 *   <li>A Sluice needs its demand, and at least its usage plus {@link #HEADROOM}, so that a
 *       Sluice whose traffic grows a little is not throttled before the next sync sees it.</li>
 *   <li>When the needs fit in the limit, each Sluice gets its need, and what is left goes to the
 *       Sluices that want more, in proportion to their demand (to all, in proportion to their
 *       need, when nobody wants more).</li>
 *   <li>When they do not fit, the limit is shared max-min fairly: a Sluice that needs less than
 *       an even split of what is left gets its need, the others split the rest evenly.</li>
 *   <li>Nobody gets less than {@link #MIN_EVEN_SPLIT} of an even split, so that a Sluice whose
 *       traffic starts again is not stuck at nothing until the next sync.</li>
 * </ul>
 */
public final class FairShare {

    /** The part of its usage a Sluice gets on top of it. */
    static final double HEADROOM = 0.05;
    /** The least anyone gets, as a part of the limit divided by the number of Sluices. */
    static final double MIN_EVEN_SPLIT = 0.1;

    private FairShare() {}

    /**
     * The share of {@code limit} that {@code member} may use: more than 0, at most 1.
     *
     * @param demands every live Sluice's report for this limit; when {@code member} is not among
     *     them (its own report was lost), it counts as one more Sluice with no demand
     */
    public static double of(String member, double limit, List<MemberDemand> demands) {
        int count = demands.size();
        int self = -1;
        for (int i = 0; i < count; i++) {
            if (demands.get(i).member().equals(member)) {
                self = i;
            }
        }
        double[] needs = new double[self < 0 ? count + 1 : count];
        boolean[] wantsMore = new boolean[needs.length];
        for (int i = 0; i < count; i++) {
            Demand demand = demands.get(i).demand();
            needs[i] = Math.max(demand.demand(), demand.usage() * (1 + HEADROOM));
            wantsMore[i] = demand.wantsMore();
        }
        if (self < 0) {
            self = count;
        }
        double allocated = allocate(limit, needs, wantsMore)[self];
        double floor = limit * MIN_EVEN_SPLIT / needs.length;
        return Math.min(1.0, Math.max(allocated, floor) / limit);
    }

    /** Each Sluice's part of {@code limit}, in the limit's units per second. */
    static double[] allocate(double limit, double[] needs, boolean[] wantsMore) {
        int n = needs.length;
        double total = 0;
        double wanting = 0;
        for (int i = 0; i < n; i++) {
            total += needs[i];
            if (wantsMore[i]) {
                wanting += needs[i];
            }
        }
        double[] parts = new double[n];
        if (total > limit) {
            double level = waterLevel(limit, needs);
            for (int i = 0; i < n; i++) {
                parts[i] = Math.min(needs[i], level);
            }
            return parts;
        }
        double spare = limit - total;
        for (int i = 0; i < n; i++) {
            if (wanting > 0) {
                parts[i] = needs[i] + (wantsMore[i] ? spare * needs[i] / wanting : 0);
            } else if (total > 0) {
                parts[i] = needs[i] + spare * needs[i] / total;
            } else {
                parts[i] = limit / n;
            }
        }
        return parts;
    }

    /** The level {@code L} at which {@code sum(min(need, L)) == limit}, for needs that add up to more. */
    private static double waterLevel(double limit, double[] needs) {
        double[] sorted = needs.clone();
        Arrays.sort(sorted);
        double left = limit;
        int n = sorted.length;
        for (int i = 0; i < n; i++) {
            double even = left / (n - i);
            if (sorted[i] >= even) {
                return even;
            }
            left -= sorted[i];
        }
        return sorted[n - 1];
    }
}
