package io.sluice.admission;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;

/**
 * Time that tests move by hand: a {@link System#nanoTime()}-like reading for sampling and a wall
 * clock that moves with it. Starts far from zero so code cannot rely on a zero origin.
 */
final class FakeClock extends Clock {

    static final Instant START = Instant.parse("2030-01-01T00:00:00Z");
    private static final long START_NANOS = 7_000_000_000_000L;

    private long nanos = START_NANOS;

    long nanoTime() {
        return nanos;
    }

    long advance(Duration duration) {
        nanos += duration.toNanos();
        return nanos;
    }

    @Override
    public Instant instant() {
        return START.plusNanos(nanos - START_NANOS);
    }

    @Override
    public ZoneId getZone() {
        return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(ZoneId zone) {
        throw new UnsupportedOperationException("tests need no other zone");
    }
}
