package io.sluice.quota;

/**
 * A monotonic clock in nanoseconds, like {@link System#nanoTime()}: only differences mean anything.
 * Injected so that tests can drive time by hand.
 */
@FunctionalInterface
public interface NanoClock {

    /** The system's monotonic clock. */
    NanoClock SYSTEM = System::nanoTime;

    /** The current time in nanoseconds. */
    long nanoTime();
}
