package io.sluice.limits;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.sluice.settings.InvalidSettingsException;

/**
 * Rates for one direction (publish or dispatch) of one scope. A {@code null} rate is unlimited.
 * {@code burstSeconds} sizes the buckets: capacity = rate x burstSeconds.
 *
 * @param messagesPerSecond messages per second, or {@code null} for unlimited
 * @param bytesPerSecond payload bytes per second, or {@code null} for unlimited
 * @param burstSeconds bucket size in seconds of rate, 0.01 to 60; {@code null} means 1.0
 * @param adaptive whether the rates are ceilings that follow the upstream's latency; {@code null} for fixed rates
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record RateLimit(Double messagesPerSecond, Double bytesPerSecond, Double burstSeconds, AdaptiveLimit adaptive) {

    /** Larger rates are taken for typing mistakes: no proxy moves a trillion messages a second. */
    public static final double MAX_RATE = 1e12;

    public static final double DEFAULT_BURST_SECONDS = 1.0;
    public static final double MIN_BURST_SECONDS = 0.01;
    public static final double MAX_BURST_SECONDS = 60.0;

    /** @throws InvalidSettingsException naming the offending field */
    public RateLimit {
        requireRate("messagesPerSecond", messagesPerSecond);
        requireRate("bytesPerSecond", bytesPerSecond);
        burstSeconds = burstOrDefault(burstSeconds);
        if (adaptive != null && messagesPerSecond == null && bytesPerSecond == null) {
            throw new InvalidSettingsException(
                    "adaptive", "needs a ceiling: messagesPerSecond or bytesPerSecond, or both");
        }
    }

    /** {@code burstSeconds}, or the default for {@code null}. @throws InvalidSettingsException when out of range */
    static double burstOrDefault(Double burstSeconds) {
        if (burstSeconds == null) {
            return DEFAULT_BURST_SECONDS;
        }
        if (!(burstSeconds >= MIN_BURST_SECONDS && burstSeconds <= MAX_BURST_SECONDS)) {
            throw new InvalidSettingsException(
                    "burstSeconds", "must be between 0.01 and 60, got " + InvalidSettingsException.show(burstSeconds));
        }
        return burstSeconds;
    }

    /** @throws InvalidSettingsException when {@code rate} is set and not a positive finite number up to {@link #MAX_RATE} */
    static void requireRate(String field, Double rate) {
        if (rate == null) {
            return;
        }
        // Written so that NaN fails too.
        if (!(rate > 0) || Double.isInfinite(rate)) {
            throw new InvalidSettingsException(
                    field, "must be a positive finite number, got " + InvalidSettingsException.show(rate));
        }
        if (rate > MAX_RATE) {
            throw new InvalidSettingsException(
                    field, "must be at most 1e12, got " + InvalidSettingsException.show(rate));
        }
    }
}
