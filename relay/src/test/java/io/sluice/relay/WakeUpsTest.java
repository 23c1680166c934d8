package io.sluice.relay;

import io.sluice.testing.ManualEventLoop;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class WakeUpsTest {

    private static final long MS = 1_000_000;
    private static final long MAX_WAIT = 100 * MS;

    private final ManualEventLoop loop = new ManualEventLoop();
    private final WakeUps timers = new WakeUps(loop, loop::clockNanos);
    private final List<String> ran = new ArrayList<>();

    private WakeUp timer(String name) {
        return timers.timer(MAX_WAIT, () -> ran.add(name));
    }

    private void advance(long millis) {
        loop.advanceTimeBy(millis, TimeUnit.MILLISECONDS);
        loop.runTasks();
    }

    @Test
    void eachTimerRunsAtItsOwnTimeOnTheConnectionsOneWakeUp() {
        WakeUp late = timer("late");
        WakeUp early = timer("early");
        WakeUp middle = timer("middle");
        late.schedule(50 * MS);
        early.schedule(10 * MS);
        middle.schedule(30 * MS);
        assertEquals(3, timers.armedCount());

        advance(9);
        assertEquals(List.of(), ran);
        advance(1);
        assertEquals(List.of("early"), ran, "the wake-up is armed at the earliest due time");
        assertFalse(early.isScheduled());
        advance(20);
        assertEquals(List.of("early", "middle"), ran, "and armed again at the next");
        advance(20);
        assertEquals(List.of("early", "middle", "late"), ran);
        assertEquals(0, timers.armedCount());
        assertFalse(loop.hasTimers(), "nothing left scheduled once every timer ran");
    }

    @Test
    void timersRunEarliestFirst() {
        WakeUp second = timer("second");
        WakeUp first = timer("first");
        second.schedule(20 * MS);
        first.schedule(10 * MS);
        advance(25);
        assertEquals(List.of("first", "second"), ran);
    }

    @Test
    void aPendingRunIsNotMoved() {
        WakeUp timer = timer("once");
        timer.schedule(50 * MS);
        timer.schedule(10 * MS);
        advance(10);
        assertEquals(List.of(), ran, "a run already pending is not moved");
        advance(40);
        assertEquals(List.of("once"), ran);
    }

    @Test
    void waitsAreClampedToTheTimersBounds() {
        WakeUp capped = timer("capped");
        capped.schedule(TimeUnit.SECONDS.toNanos(10));
        advance(100);
        assertEquals(List.of("capped"), ran, "a long wait still wakes up to see changed limits");

        WakeUp paced = timers.timer(MS, MAX_WAIT, () -> ran.add("paced"));
        paced.schedule(1);
        loop.advanceTimeBy(999, TimeUnit.MICROSECONDS);
        loop.runTasks();
        assertEquals(List.of("capped"), ran, "a tiny wait does not spin");
        advance(1);
        assertEquals(List.of("capped", "paced"), ran);
    }

    @Test
    void aCancelledTimerDoesNotRunNorDoesOneAnEarlierTaskCancelled() {
        WakeUp cancelled = timer("cancelled");
        cancelled.schedule(10 * MS);
        cancelled.cancel();
        assertFalse(cancelled.isScheduled());

        WakeUp victim = timer("victim");
        WakeUp killer = timers.timer(MAX_WAIT, () -> {
            ran.add("killer");
            victim.cancel();
        });
        killer.schedule(20 * MS);
        victim.schedule(21 * MS);
        advance(30);
        assertEquals(List.of("killer"), ran);
        assertEquals(0, timers.armedCount());
    }

    @Test
    void aTaskMayScheduleItselfAgain() {
        int[] runs = {0};
        WakeUp[] self = new WakeUp[1];
        self[0] = timers.timer(MAX_WAIT, () -> {
            if (++runs[0] < 3) {
                self[0].schedule(10 * MS);
            }
        });
        self[0].schedule(10 * MS);
        advance(10);
        assertTrue(self[0].isScheduled());
        advance(10);
        advance(10);
        assertEquals(3, runs[0]);
        assertFalse(self[0].isScheduled());
    }

    @Test
    void aFailingTaskStopsNoOtherTimer() {
        WakeUp failing = timers.timer(MAX_WAIT, () -> {
            throw new IllegalStateException("expected by the test");
        });
        WakeUp other = timer("other");
        failing.schedule(10 * MS);
        other.schedule(10 * MS);
        advance(10);
        assertEquals(List.of("other"), ran);
    }

    @Test
    void aClosedConnectionsTimersNeverRunAndLeaveNothingScheduled() {
        WakeUp closer = timers.timer(MAX_WAIT, () -> {
            ran.add("closer");
            timers.close();
        });
        WakeUp after = timer("after");
        closer.schedule(10 * MS);
        after.schedule(10 * MS);
        timer("later").schedule(50 * MS);
        advance(10);
        assertEquals(List.of("closer"), ran, "a timer due with the one that closed does not run");
        assertFalse(loop.hasTimers(), "nothing outlives the connection");

        after.schedule(10 * MS);
        advance(100);
        assertEquals(List.of("closer"), ran, "nor does one armed after the close");
        assertFalse(loop.hasTimers());
    }
}
