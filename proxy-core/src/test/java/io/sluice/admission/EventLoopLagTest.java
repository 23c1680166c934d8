package io.sluice.admission;

import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class EventLoopLagTest {

    private static final Duration PERIOD = Duration.ofMillis(100);

    private final FakeClock clock = new FakeClock();
    private final EventLoopLag lag = new EventLoopLag(PERIOD);

    @Test
    void unknownWithoutLoops() {
        assertTrue(Double.isNaN(lag.read(clock.nanoTime())));
        assertEquals(EventLoopLag.DEFAULT_PROBE_PERIOD, new EventLoopLag().probePeriod());
        assertThrows(IllegalArgumentException.class, () -> new EventLoopLag(Duration.ZERO));
    }

    @Test
    void onTimeTicksShowNoLag() {
        EventLoopLag.Probe probe = lag.register(clock.nanoTime());
        for (int i = 0; i < 10; i++) {
            probe.tick(clock.advance(PERIOD));
        }
        assertEquals(0, lag.read(clock.nanoTime()));
    }

    @Test
    void theWorstLateTickSinceTheLastReadCounts() {
        EventLoopLag.Probe first = lag.register(clock.nanoTime());
        EventLoopLag.Probe second = lag.register(clock.nanoTime());
        first.tick(clock.advance(PERIOD.plusMillis(250)));
        second.tick(clock.nanoTime());
        first.tick(clock.advance(PERIOD.plusMillis(30)));
        second.tick(clock.nanoTime());
        assertEquals(250, lag.read(clock.nanoTime()), 1e-9);
        // Read resets: the next interval starts clean.
        assertEquals(0, lag.read(clock.nanoTime()));
    }

    @Test
    void aStuckLoopCountsWhileItIsStuck() {
        EventLoopLag.Probe stuck = lag.register(clock.nanoTime());
        EventLoopLag.Probe healthy = lag.register(clock.nanoTime());
        for (int i = 0; i < 10; i++) {
            healthy.tick(clock.advance(PERIOD));
        }
        // The stuck loop's first tick was due after 100 ms; it is now 1 s in.
        assertEquals(900, lag.read(clock.nanoTime()), 1e-9);
        stuck.close();
        assertEquals(0, lag.read(clock.nanoTime()));
        healthy.close();
        assertTrue(Double.isNaN(lag.read(clock.nanoTime())));
    }

    @Test
    void tickingAllocatesNothing() {
        EventLoopLag.Probe probe = lag.register(clock.nanoTime());
        long[] now = {clock.nanoTime()};
        assertEquals(0, AllocationMeter.bytesPerCall(() -> probe.tick(now[0] += PERIOD.toNanos() + 1_000_000)));
    }
}
