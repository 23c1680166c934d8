package io.sluice.limits;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.sluice.settings.InvalidSettingsException;

/**
 * Adaptive publish rates (docs/REFERENCE.md, "Adaptive limits"): the scope's configured rate is a
 * ceiling, and the rate in force follows the upstream's publish latency, falling while its p99 is
 * over {@code targetLatencyMillis} and climbing back while it is under, never below
 * {@code floorFraction} of the ceiling.
 *
 * @param targetLatencyMillis the upstream p99 publish latency to hold, 0.1 to 60,000 ms
 * @param floorFraction the least share of the ceiling the rate falls to, 0.001 to 1; {@code null} means 0.05
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record AdaptiveLimit(Double targetLatencyMillis, Double floorFraction) {

    public static final double DEFAULT_FLOOR_FRACTION = 0.05;
    public static final double MIN_TARGET_MILLIS = 0.1;
    public static final double MAX_TARGET_MILLIS = 60_000;
    public static final double MIN_FLOOR_FRACTION = 0.001;

    /** @throws InvalidSettingsException naming the offending field */
    public AdaptiveLimit {
        if (targetLatencyMillis == null) {
            throw new InvalidSettingsException("targetLatencyMillis", "is required");
        }
        if (!(targetLatencyMillis >= MIN_TARGET_MILLIS && targetLatencyMillis <= MAX_TARGET_MILLIS)) {
            throw new InvalidSettingsException(
                    "targetLatencyMillis",
                    "must be between 0.1 and 60000, got " + InvalidSettingsException.show(targetLatencyMillis));
        }
        if (floorFraction == null) {
            floorFraction = DEFAULT_FLOOR_FRACTION;
        } else if (!(floorFraction >= MIN_FLOOR_FRACTION && floorFraction <= 1)) {
            throw new InvalidSettingsException(
                    "floorFraction",
                    "must be between 0.001 and 1, got " + InvalidSettingsException.show(floorFraction));
        }
    }
}
