package io.sluice.admission;

/**
 * An exponentially weighted moving average over time: each new value weighs {@code 1 - e^(-dt/tau)},
 * so the result does not depend on how often values arrive. Not thread-safe; fed by the sampler.
 */
final class MovingAverage {

    private final double timeConstantNanos;
    private double average = Double.NaN;
    private long lastNanos;

    /** @param timeConstantNanos tau: a step change is 63 % through after this long */
    MovingAverage(long timeConstantNanos) {
        if (timeConstantNanos <= 0) {
            throw new IllegalArgumentException("timeConstantNanos must be positive, got " + timeConstantNanos);
        }
        this.timeConstantNanos = timeConstantNanos;
    }

    /** Folds in {@code value} seen at {@code nowNanos} and returns the new average; NaN values are skipped. */
    double add(double value, long nowNanos) {
        if (Double.isNaN(value)) {
            return average;
        }
        if (Double.isNaN(average)) {
            average = value;
        } else {
            double weight = 1 - Math.exp(-Math.max(0, nowNanos - lastNanos) / timeConstantNanos);
            average += weight * (value - average);
        }
        lastNanos = nowNanos;
        return average;
    }
}
