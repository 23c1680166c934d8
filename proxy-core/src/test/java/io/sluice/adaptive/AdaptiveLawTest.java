package io.sluice.adaptive;

import io.sluice.adaptive.AdaptiveLaw.Direction;
import io.sluice.adaptive.AdaptiveLaw.State;
import io.sluice.adaptive.AdaptiveLaw.Step;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The control law alone, interval by interval: what each reading does to the rate. */
class AdaptiveLawTest {

    private static final double TARGET = 10;
    private static final double FLOOR = 0.05;

    @Test
    void overTargetTheRateIsCutFromWhatPassedNotFromTheCeiling() {
        // A ceiling of 1,000,000 on a broker that passes 150,000: one interval over target bites at once.
        Step step = AdaptiveLaw.next(State.INITIAL, 0.15, 80, TARGET, FLOOR);
        assertEquals(Direction.DOWN, step.direction());
        assertEquals(0.075, step.state().fraction(), 1e-9, "half of what passed, the deepest cut");
        assertEquals(0.15, step.state().knee(), 1e-9, "what passed is remembered as the knee");
    }

    @Test
    void theIntervalAfterACutHoldsWhileTheBrokersQueueDrainsThenCutsAgainIfItMust() {
        Step cut = AdaptiveLaw.next(State.INITIAL, 0.15, 80, TARGET, FLOOR);
        Step draining = AdaptiveLaw.next(cut.state(), 0.08, 60, TARGET, FLOOR);
        assertEquals(Direction.HOLD, draining.direction());
        assertEquals(0.075, draining.state().fraction(), 1e-9);
        assertEquals(0.15, draining.state().knee(), 1e-9, "what passed under Sluice's own rate is not the knee");
        Step again = AdaptiveLaw.next(draining.state(), 0.075, 60, TARGET, FLOOR);
        assertEquals(Direction.DOWN, again.direction());
    }

    @Test
    void aMildOvershootIsCutByATenth() {
        Step step = AdaptiveLaw.next(new State(0.5, 0, false, AdaptiveLaw.FIRST_PROBE), 0.5, 15, TARGET, FLOOR);
        assertEquals(0.45, step.state().fraction(), 1e-9);
    }

    @Test
    void aLatencyFarOverTargetCutsInProportionAtMostByHalfAndNeverBelowTheFloor() {
        assertEquals(
                0.5 * 0.9 * 20 / 30,
                AdaptiveLaw.next(new State(0.5, 0, false, AdaptiveLaw.FIRST_PROBE), 0.5, 30, TARGET, FLOOR)
                        .state()
                        .fraction(),
                1e-9);
        assertEquals(
                0.25,
                AdaptiveLaw.next(new State(0.5, 0, false, AdaptiveLaw.FIRST_PROBE), 0.5, 500, TARGET, FLOOR)
                        .state()
                        .fraction(),
                1e-9);
        Step floor = AdaptiveLaw.next(new State(0.06, 0, false, AdaptiveLaw.FIRST_PROBE), 0.06, 1000, TARGET, FLOOR);
        assertEquals(FLOOR, floor.state().fraction(), 1e-9);
        Step atFloor = AdaptiveLaw.next(floor.state(), 0.05, 1000, TARGET, FLOOR);
        assertEquals(Direction.HOLD, atFloor.direction(), "at the floor there is nowhere to go");
    }

    @Test
    void noReadingHoldsTheRateHoweverLong() {
        State state = new State(0.3, 0.4, false, AdaptiveLaw.FIRST_PROBE);
        for (int interval = 0; interval < 100; interval++) {
            Step step = AdaptiveLaw.next(state, 0.3, Double.NaN, TARGET, FLOOR);
            assertEquals(Direction.HOLD, step.direction());
            state = step.state();
        }
        assertEquals(0.3, state.fraction(), 1e-9, "never falls for want of data");
    }

    @Test
    void underHalfTheTargetASaturatedScopeClimbsFastToNinetyPercentOfTheKneeThenProbes() {
        State state = new State(0.075, 0.15, false, AdaptiveLaw.FIRST_PROBE);
        double[] expected = {0.09375, 0.1171875, 0.135, 0.1377, 0.140454, 0.14326308, 0.1489936};
        for (double fraction : expected) {
            Step step = AdaptiveLaw.next(state, state.fraction(), 2, TARGET, FLOOR);
            assertEquals(Direction.UP, step.direction());
            assertEquals(fraction, step.state().fraction(), 1e-6);
            state = step.state();
        }
    }

    @Test
    void betweenHalfTheTargetAndTheTargetASaturatedScopeHolds() {
        Step step = AdaptiveLaw.next(new State(0.2, 0.25, false, AdaptiveLaw.FIRST_PROBE), 0.2, 7, TARGET, FLOOR);
        assertEquals(Direction.HOLD, step.direction());
        assertEquals(0.2, step.state().fraction());
    }

    @Test
    void aScopeNotUsingItsRateDoublesBackToTheCeiling() {
        State state = new State(FLOOR, 0.15, false, AdaptiveLaw.FIRST_PROBE);
        int intervals = 0;
        while (state.fraction() < 1) {
            state = AdaptiveLaw.next(state, 0.01, 3, TARGET, FLOOR).state();
            intervals++;
        }
        assertEquals(5, intervals, "0.05 -> 0.1 -> 0.2 -> 0.4 -> 0.8 -> 1");
        assertEquals(
                Direction.HOLD, AdaptiveLaw.next(state, 0.01, 3, TARGET, FLOOR).direction());
    }

    @Test
    void eachProbeThatKeepsTheLatencyLowDoublesTheNextSoAKneeMeasuredInAStallIsLeftBehind() {
        // A knee measured while the broker was stalled: 1 % of the ceiling.
        State state = new State(0.01, 0.01, false, AdaptiveLaw.FIRST_PROBE);
        int intervals = 0;
        while (state.fraction() < 0.1) {
            state = AdaptiveLaw.next(state, state.fraction(), 2, TARGET, 0.001).state();
            intervals++;
        }
        assertTrue(intervals <= 18, intervals + " intervals from 1 % to 10 %");
        Step cut = AdaptiveLaw.next(state, state.fraction(), 50, TARGET, 0.001);
        assertEquals(AdaptiveLaw.FIRST_PROBE, cut.state().probe(), "a cut starts the probes small again");
    }

    @Test
    void passingTheKneeWithTheLatencyLowMovesTheKneeUp() {
        Step step = AdaptiveLaw.next(new State(0.2, 0.18, false, AdaptiveLaw.FIRST_PROBE), 0.2, 2, TARGET, FLOOR);
        assertEquals(0.2, step.state().knee(), 1e-9);
        assertEquals(0.204, step.state().fraction(), 1e-9, "a probe past the knee, not a fast climb");
    }

    @Test
    void anOscillatingLatencyKeepsTheRateBetweenTheFloorAndTheCeiling() {
        State state = State.INITIAL;
        for (int interval = 0; interval < 1000; interval++) {
            double latency = interval % 2 == 0 ? 100 : 1;
            state = AdaptiveLaw.next(state, state.fraction(), latency, TARGET, FLOOR)
                    .state();
            assertTrue(state.fraction() >= FLOOR && state.fraction() <= 1, "fraction " + state.fraction());
        }
        // Every cut halves and every climb adds a quarter at most: the rate settles at the floor (and
        // a quarter over it after a good second), since a broker that is slow every other second is slow.
        assertTrue(state.fraction() <= FLOOR * 1.25 + 1e-9, "fraction " + state.fraction());
    }
}
