package io.sluice.admission;

import io.sluice.settings.InvalidSettingsException;

import java.util.Collections;
import java.util.EnumMap;
import java.util.Map;

/**
 * What admission control does and when: the mode, a threshold per used signal and the breaker
 * parameters. Immutable and validated on construction; swap a whole new instance into
 * {@link AdmissionController#update} to change settings live. The JSON form is
 * {@link AdmissionJson}'s.
 *
 * @param mode disabled, monitor-only or enforced
 * @param thresholds the threshold of each used signal, in the signal's {@link Signal#unit() unit};
 *        a signal without an entry is not used
 * @param sampleIntervalMillis how often signals are sampled and breakers stepped, 100 to 60000
 * @param openAfterBreaches N: consecutive breached samples that open a closed breaker, 1 to 1000
 * @param coolDownMillis how long an open breaker stays open before probing, 0 to 3600000
 * @param halfOpenAdmitShare the share of requests a half-open breaker admits, 0 to 1
 * @param closeAfterHealthy M: consecutive healthy samples that close a half-open breaker, 1 to 1000
 */
public record AdmissionSettings(
        AdmissionMode mode,
        Map<Signal, Double> thresholds,
        long sampleIntervalMillis,
        int openAfterBreaches,
        long coolDownMillis,
        double halfOpenAdmitShare,
        int closeAfterHealthy) {

    public static final long MIN_SAMPLE_INTERVAL_MILLIS = 100;
    public static final long MAX_SAMPLE_INTERVAL_MILLIS = 60_000;
    public static final int MAX_SAMPLE_COUNT = 1000;
    public static final long MAX_COOL_DOWN_MILLIS = 3_600_000;

    /** Disabled, every signal at its {@link Signal#defaultThreshold() default threshold}, 1 s samples, N = 3, 10 s cool-down, 10 % probes, M = 3. */
    public static final AdmissionSettings DEFAULTS =
            new AdmissionSettings(AdmissionMode.DISABLED, defaultThresholds(), 1000, 3, 10_000, 0.1, 3);

    /** @throws InvalidSettingsException naming the offending field */
    public AdmissionSettings {
        if (mode == null) {
            throw new InvalidSettingsException(
                    "mode", "must be one of \"disabled\", \"monitor_only\", \"enforced\", got null");
        }
        if (thresholds == null) {
            throw new InvalidSettingsException("thresholds", "must be a map of signal to threshold, got null");
        }
        EnumMap<Signal, Double> used = new EnumMap<>(Signal.class);
        for (Map.Entry<Signal, Double> entry : thresholds.entrySet()) {
            Signal signal = entry.getKey();
            if (signal == null) {
                throw new InvalidSettingsException("thresholds", "must not name a null signal");
            }
            // A null threshold means the same as no entry: the signal is not used.
            if (entry.getValue() != null) {
                String problem = signal.unit().thresholdProblem(entry.getValue());
                if (problem != null) {
                    throw new InvalidSettingsException("thresholds." + signal.jsonName(), problem);
                }
                used.put(signal, entry.getValue());
            }
        }
        thresholds = Collections.unmodifiableMap(used);
        requireRange(
                "sampleIntervalMillis", sampleIntervalMillis, MIN_SAMPLE_INTERVAL_MILLIS, MAX_SAMPLE_INTERVAL_MILLIS);
        requireRange("openAfterBreaches", openAfterBreaches, 1, MAX_SAMPLE_COUNT);
        requireRange("coolDownMillis", coolDownMillis, 0, MAX_COOL_DOWN_MILLIS);
        if (!(halfOpenAdmitShare >= 0 && halfOpenAdmitShare <= 1)) {
            throw new InvalidSettingsException(
                    "halfOpenAdmitShare",
                    "must be at least 0 and at most 1, got " + Signal.Unit.plain(halfOpenAdmitShare));
        }
        requireRange("closeAfterHealthy", closeAfterHealthy, 1, MAX_SAMPLE_COUNT);
    }

    /** The threshold of {@code signal}, or {@code null} if the signal is not used. */
    public Double threshold(Signal signal) {
        return thresholds.get(signal);
    }

    /** These settings in another mode. */
    public AdmissionSettings withMode(AdmissionMode newMode) {
        return new AdmissionSettings(
                newMode,
                thresholds,
                sampleIntervalMillis,
                openAfterBreaches,
                coolDownMillis,
                halfOpenAdmitShare,
                closeAfterHealthy);
    }

    /** These settings with {@code signal}'s threshold replaced; {@code null} stops using the signal. */
    public AdmissionSettings withThreshold(Signal signal, Double threshold) {
        EnumMap<Signal, Double> changed = new EnumMap<>(Signal.class);
        changed.putAll(thresholds);
        if (threshold == null) {
            changed.remove(signal);
        } else {
            changed.put(signal, threshold);
        }
        return new AdmissionSettings(
                mode,
                changed,
                sampleIntervalMillis,
                openAfterBreaches,
                coolDownMillis,
                halfOpenAdmitShare,
                closeAfterHealthy);
    }

    private static Map<Signal, Double> defaultThresholds() {
        EnumMap<Signal, Double> defaults = new EnumMap<>(Signal.class);
        for (Signal signal : Signal.values()) {
            defaults.put(signal, signal.defaultThreshold());
        }
        return defaults;
    }

    private static void requireRange(String field, long value, long min, long max) {
        if (value < min || value > max) {
            throw new InvalidSettingsException(
                    field, "must be at least " + min + " and at most " + max + ", got " + value);
        }
    }
}
