package io.sluice.relay.connection;

import org.junit.jupiter.api.Test;

import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** One clock reading a read, a fresh one every call outside reads. */
class ReadClockTest {

    private final AtomicLong source = new AtomicLong(1_000);
    private final ReadClock clock = new ReadClock(source::incrementAndGet);

    @Test
    void withinAReadEveryFrameGetsTheFirstReading() {
        clock.frameRead();
        long first = clock.nanoTime();
        clock.frameRead();
        assertEquals(first, clock.nanoTime());
        assertEquals(first, clock.nanoTime());
        assertEquals(1, source.get() - 1_000, "the source was read once");
        clock.readComplete();
        clock.frameRead();
        assertEquals(first + 1, clock.nanoTime(), "the next read reads afresh");
    }

    @Test
    void outsideAReadEveryCallReadsTheSource() {
        assertEquals(1_001, clock.nanoTime());
        assertEquals(1_002, clock.nanoTime());
        clock.frameRead();
        clock.readComplete();
        assertEquals(1_003, clock.nanoTime(), "a timer after a read gets its own time");
    }
}
