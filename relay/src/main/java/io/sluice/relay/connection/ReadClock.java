package io.sluice.relay.connection;

import io.sluice.quota.NanoClock;

/**
 * One connection's clock for its gates: within one read of either channel every frame is given
 * the time the first of them asked for, instead of a clock read each (two a message, a send and
 * its receipt, at some 20 ns each). Frames of one read arrived together; the microseconds it takes
 * to go through them are far under anything a quota or a latency figure tells apart. Outside a
 * read (a timer releasing held sends, a connect completing) every call reads the clock afresh.
 *
 * <p>Confined to the connection's event loop, as the reads are.
 */
public final class ReadClock implements NanoClock {

    private final NanoClock source;
    private boolean reading;
    private boolean held;
    private long heldNanos;

    ReadClock(NanoClock source) {
        this.source = source;
    }

    @Override
    public long nanoTime() {
        if (held) {
            return heldNanos;
        }
        long now = source.nanoTime();
        if (reading) {
            heldNanos = now;
            held = true;
        }
        return now;
    }

    /** A frame of a read is being handled: the clock holds its next reading until the read completes. */
    void frameRead() {
        reading = true;
    }

    /** The read is over: from now on the clock is read afresh. */
    void readComplete() {
        reading = false;
        held = false;
    }
}
