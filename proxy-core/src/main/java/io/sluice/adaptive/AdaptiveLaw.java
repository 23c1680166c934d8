package io.sluice.adaptive;

/**
 * The control law of an adaptive limit: once an interval, from the upstream's p99 publish latency
 * and what the scope passed, the part of its ceiling the scope may use next. Pure and stateless:
 * the caller keeps each scope's {@link State} and feeds it back.
 *
 * <p>Rates are fractions of the ceiling (the configured rate), so the law is the same for a topic
 * at 100 msg/s and a tenant at 1 GB/s, and for a Sluice that holds the whole limit or a share of it.
 *
 * <ul>
 *   <li><b>Over target</b>: the broker queues. The new rate is cut from what the scope actually
 *       passed (not from its rate in force, which may be far above: a ceiling of 1,000,000 msg/s on
 *       a broker that takes 150,000 passes 150,000), by 10 % while the latency is at most twice the
 *       target, and further in proportion beyond ({@code 0.9 x 2 x target / latency}, at most by
 *       half). The interval after a cut holds, whatever the latency: the queue the broker built
 *       before the cut takes a while to drain, and cutting again for it would cut twice for one
 *       overload (TCP, likewise, cuts once per round trip). When the scope passed less than its
 *       rate in force, what held it back was the broker, and what passed is the broker's capacity
 *       as this scope sees it: the <em>knee</em>.
 *   <li><b>Under half the target</b>, the scope using its rate: it climbs, by 25 % an interval
 *       while under 90 % of the knee, then by a probe of 2 % an interval, which after three
 *       intervals of low latency doubles with each further one (to 25 %). A climb of a share of the rate, not of
 *       the ceiling, does not overshoot a broker whose capacity is a small part of the ceiling; the
 *       small first probes near the knee keep an overshoot to a few percent, which the broker's
 *       queue drains within an interval; and a knee measured while the broker was briefly stalled
 *       is left behind within seconds. Passing the knee without the latency rising moves the knee
 *       up: the broker can take more now.
 *   <li><b>Under target, the scope not using its rate</b> (the pressure is off, or its clients slowed
 *       down): the rate doubles an interval, back to the ceiling within seconds of the floor, so a
 *       scope is not held low for want of traffic.
 *   <li><b>Between half the target and the target</b>, the scope using its rate: the rate holds,
 *       the band in which a loaded broker is meant to run.
 *   <li><b>No latency reading</b> (no publish was answered in the interval): the rate holds. A scope
 *       never falls for want of data.
 * </ul>
 *
 * <p>The rate never falls below the limit's floor, nor rises above the ceiling.
 */
public final class AdaptiveLaw {

    /** Cut to this part of what passed while the latency is at most {@link #MILD_OVERSHOOT} times the target. */
    static final double MILD_CUT = 0.9;

    static final double MILD_OVERSHOOT = 2;

    /** The deepest cut in one interval: to half of what passed. */
    static final double DEEPEST_CUT = 0.5;

    /** The climb an interval below {@link #KNEE_APPROACH} of the knee (or with no knee known). */
    static final double FAST_CLIMB = 0.25;

    /** The least climb from {@link #KNEE_APPROACH} of the knee on. */
    static final double PROBE_CLIMB = 0.02;

    /**
     * What a probe's climb grows from: it doubles with each probe the latency stays low, and a probe
     * climbs by the larger of it and {@link #PROBE_CLIMB}, so three probes of 2 % come before 4 %.
     */
    static final double FIRST_PROBE = PROBE_CLIMB / 4;

    static final double KNEE_APPROACH = 0.9;

    /** A scope that passed at least this part of its rate in force was using all of it. */
    static final double SATURATED = 0.9;

    /** Which way a step moved the rate, for the status. */
    public enum Direction {
        DOWN,
        UP,
        HOLD
    }

    /**
     * What the law keeps of one scope between intervals.
     *
     * @param fraction the part of the ceiling in force, the floor to 1
     * @param knee the part of the ceiling the broker let through when it was last too slow; 0 while unknown
     * @param justCut whether the last interval cut the rate
     * @param probe what the next probe's climb grows from ({@link #FIRST_PROBE} after a cut)
     */
    public record State(double fraction, double knee, boolean justCut, double probe) {

        /** A scope that was never adapted: the whole ceiling, no knee known. */
        public static final State INITIAL = new State(1, 0, false, FIRST_PROBE);

        /** A scope whose rate in force is {@code fraction} of its ceiling, with nothing else known. */
        public static State at(double fraction) {
            return new State(fraction, 0, false, FIRST_PROBE);
        }

        private State with(double nextFraction, double nextKnee, boolean cut, double nextProbe) {
            return new State(nextFraction, nextKnee, cut, nextProbe);
        }
    }

    /** One interval's outcome: the new state and the way the rate moved. */
    public record Step(State state, Direction direction) {}

    private AdaptiveLaw() {}

    /**
     * The next interval's state.
     *
     * @param state what the scope had in force during the interval
     * @param passed what the scope passed in the interval, as a part of its ceiling (may exceed 1 after a burst)
     * @param latencyMillis the upstream's p99 publish latency in the interval; NaN when nothing was answered
     * @param targetMillis the latency to hold
     * @param floor the least part of the ceiling the rate may fall to
     */
    public static Step next(State state, double passed, double latencyMillis, double targetMillis, double floor) {
        double fraction = state.fraction();
        if (Double.isNaN(latencyMillis)) {
            return new Step(state, Direction.HOLD);
        }
        boolean saturated = passed >= SATURATED * fraction;
        if (latencyMillis > targetMillis) {
            if (state.justCut()) {
                return new Step(state.with(fraction, state.knee(), false, state.probe()), Direction.HOLD);
            }
            double cut = Math.max(DEEPEST_CUT, MILD_CUT * Math.min(1, MILD_OVERSHOOT * targetMillis / latencyMillis));
            double next = clamp(Math.min(fraction, passed) * cut, floor);
            double knee = saturated ? Math.max(state.knee(), Math.min(passed, 1)) : Math.min(passed, 1);
            return next < fraction
                    ? new Step(state.with(next, knee, true, FIRST_PROBE), Direction.DOWN)
                    : new Step(state.with(fraction, knee, false, FIRST_PROBE), Direction.HOLD);
        }
        // A knee passed with the latency under target was not the broker's limit: it moves up.
        double knee = state.knee() > 0 ? Math.max(state.knee(), Math.min(passed, 1)) : 0;
        if (!saturated) {
            double next = clamp(fraction * 2, floor);
            return new Step(
                    state.with(next, knee, false, state.probe()), next > fraction ? Direction.UP : Direction.HOLD);
        }
        if (latencyMillis > targetMillis / 2) {
            return new Step(state.with(fraction, knee, false, state.probe()), Direction.HOLD);
        }
        boolean probing = knee > 0 && fraction >= KNEE_APPROACH * knee;
        double next = clamp(fraction * (1 + (probing ? Math.max(PROBE_CLIMB, state.probe()) : FAST_CLIMB)), floor);
        if (knee > 0 && !probing) {
            // The fast climb stops short of the knee; the probe takes it from there.
            next = Math.max(fraction, Math.min(next, KNEE_APPROACH * knee));
        }
        double probe = probing ? Math.min(FAST_CLIMB, state.probe() * 2) : state.probe();
        return new Step(state.with(next, knee, false, probe), next > fraction ? Direction.UP : Direction.HOLD);
    }

    private static double clamp(double fraction, double floor) {
        return Math.max(floor, Math.min(1, fraction));
    }
}
