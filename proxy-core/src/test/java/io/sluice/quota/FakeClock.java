package io.sluice.quota;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;

/** A clock tests move by hand; starts far from zero so code cannot rely on a zero origin. */
final class FakeClock implements NanoClock {

    private final AtomicLong now = new AtomicLong(1_000_000_000_000L);

    @Override
    public long nanoTime() {
        return now.get();
    }

    long advance(long nanos) {
        return now.addAndGet(nanos);
    }

    long advance(Duration duration) {
        return advance(duration.toNanos());
    }
}
