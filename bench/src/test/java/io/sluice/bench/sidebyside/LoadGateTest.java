package io.sluice.bench.sidebyside;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** What an operator sees of the load gate: a refusal on a busy machine, a wait, an override in the results. */
class LoadGateTest {

    private static final Duration SETTLE = Duration.ofMillis(200);
    private static final Duration POLL = Duration.ofMillis(10);

    @Test
    void aBusyMachineIsRefusedInOneLineThatNamesTheOverride() {
        LoadGate gate = new LoadGate(false, () -> load(3.12), SETTLE, POLL);

        LoadGate.BusyMachine refusal = assertThrows(LoadGate.BusyMachine.class, gate::admitSuite);

        assertEquals(
                "refusing to start the suite: the 1-minute load average is 3.12, over 1.5; stop other work"
                        + " (builds, IDEs, other benchmarks) and run again, or pass -Dbench.allowLoad=true to"
                        + " measure anyway (the results will say so)",
                refusal.getMessage());
    }

    @Test
    void aQuietMachineStartsAndTheResultsSayTheLoad() {
        LoadGate gate = new LoadGate(false, () -> load(0.42), SETTLE, POLL);

        assertTrue(gate.admitSuite().startsWith("Load gate: load average 0.42 0.30 0.25 at the start"));
    }

    @Test
    void theOverrideStartsABusyMachineAndTheResultsSaySo() throws InterruptedException {
        LoadGate gate = new LoadGate(true, () -> load(15.06), SETTLE, POLL);

        assertTrue(gate.admitSuite().startsWith("Load gate overridden (-Dbench.allowLoad=true): load average 15.06"));
        assertEquals(15.06, gate.beforeRun("a run"));
    }

    @Test
    void aMeasuredRunWaitsForTheLoadToFallAndStartsAtTheLoadItFellTo() throws InterruptedException {
        Deque<Double> readings = new ArrayDeque<>(List.of(2.0, 1.8, 1.4));
        LoadGate gate =
                new LoadGate(false, () -> load(readings.size() > 1 ? readings.pop() : readings.peek()), SETTLE, POLL);

        assertEquals(1.4, gate.beforeRun("a run"));
    }

    @Test
    void aMeasuredRunIsRefusedWhenTheLoadDoesNotFall() {
        LoadGate gate = new LoadGate(false, () -> load(1.6), SETTLE, POLL);

        LoadGate.BusyMachine refusal =
                assertThrows(LoadGate.BusyMachine.class, () -> gate.beforeRun("1 KiB through Sluice"));

        assertTrue(refusal.getMessage()
                .startsWith("refusing to start 1 KiB through Sluice: the 1-minute load average is 1.60"));
    }

    private static LoadAverage load(double oneMinute) {
        return new LoadAverage(oneMinute, 0.30, 0.25);
    }
}
