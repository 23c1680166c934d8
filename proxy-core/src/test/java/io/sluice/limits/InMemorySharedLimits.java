package io.sluice.limits;

import java.io.IOException;
import java.util.Optional;

/** A shared limits store in memory with the compare-and-set of the real one; {@link #down} makes it unreachable. */
final class InMemorySharedLimits implements SharedLimits {

    private VersionedLimits stored;
    boolean down;

    @Override
    public synchronized Optional<VersionedLimits> read() throws IOException {
        check();
        return Optional.ofNullable(stored);
    }

    @Override
    public synchronized boolean compareAndSet(long expected, long next, String json) throws IOException {
        check();
        long current = stored == null ? 0 : stored.version();
        if (current != expected) {
            return false;
        }
        stored = new VersionedLimits(next, json);
        return true;
    }

    /** As a store restarted without persistence. */
    synchronized void forget() {
        stored = null;
    }

    synchronized long version() {
        return stored == null ? 0 : stored.version();
    }

    private void check() throws IOException {
        if (down) {
            throw new IOException("connection refused");
        }
    }
}
