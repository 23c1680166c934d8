package io.sluice.admission;

/**
 * One signal as the latest sample saw it.
 *
 * @param value the value in the signal's unit, {@link Double#NaN} when unknown or not yet sampled
 * @param threshold the threshold the sample compared it with, {@code null} when the signal was not used
 * @param breached whether the value was over the threshold
 */
public record SignalReading(double value, Double threshold, boolean breached) {}
