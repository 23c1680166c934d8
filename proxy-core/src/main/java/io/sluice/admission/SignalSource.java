package io.sluice.admission;

/**
 * Where a {@link Signal}'s value comes from. Read only by the sampler thread, once per sample, so
 * a source may reset what it has gathered since the previous read.
 */
@FunctionalInterface
public interface SignalSource {

    /**
     * The current value in the signal's {@link Signal#unit() unit}, or {@link Double#NaN} when it
     * is unknown (not supported here, or nothing measured yet). An unknown value never breaches.
     *
     * @param nowNanos the sample time on the {@link System#nanoTime()} scale
     */
    double read(long nowNanos);
}
