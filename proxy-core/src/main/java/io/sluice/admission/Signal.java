package io.sluice.admission;

import com.fasterxml.jackson.annotation.JsonValue;

import java.math.BigDecimal;
import java.math.RoundingMode;

/**
 * A measure of proxy health that admission control compares with a threshold. A sample is
 * breached when any used signal's value is greater than its threshold.
 */
public enum Signal {
    /** Process CPU use over all available processors, 0 to 1, as a moving average. */
    CPU("cpu", Unit.FRACTION, 0.9),
    /** Heap used over heap max, 0 to 1. */
    HEAP("heap", Unit.FRACTION, 0.9),
    /** Direct (off-heap) buffer memory used over its max, 0 to 1. */
    DIRECT_MEMORY("direct_memory", Unit.FRACTION, 0.9),
    /** The worst event-loop scheduling delay since the previous sample, in milliseconds. */
    EVENT_LOOP_LAG("event_loop_lag", Unit.MILLISECONDS, 200),
    /** The 99th percentile of upstream SEND to SEND_RECEIPT time over a sliding window, in milliseconds. */
    UPSTREAM_LATENCY_P99("upstream_latency_p99", Unit.MILLISECONDS, 1000),
    /** Failed upstream connection attempts since the previous sample. */
    UPSTREAM_CONNECT_FAILURES("upstream_connect_failures", Unit.PER_INTERVAL, 5);

    private final String jsonName;
    private final Unit unit;
    private final double defaultThreshold;

    Signal(String jsonName, Unit unit, double defaultThreshold) {
        this.jsonName = jsonName;
        this.unit = unit;
        this.defaultThreshold = defaultThreshold;
    }

    /** The name in JSON, metrics and reject messages, e.g. {@code upstream_latency_p99}. */
    @JsonValue
    public String jsonName() {
        return jsonName;
    }

    /** What the signal's values and threshold are measured in. */
    public Unit unit() {
        return unit;
    }

    /** The threshold used when settings do not name one. */
    public double defaultThreshold() {
        return defaultThreshold;
    }

    /** The signal spelled {@code jsonName}, or {@code null} if there is none. */
    static Signal fromJsonName(String jsonName) {
        for (Signal signal : values()) {
            if (signal.jsonName.equals(jsonName)) {
                return signal;
            }
        }
        return null;
    }

    /** What a signal is measured in: decides the valid thresholds and how values are shown. */
    public enum Unit {
        /** A share from 0 to 1; thresholds must be greater than 0 and at most 1. */
        FRACTION("", "", 3),
        /** Milliseconds; thresholds must be greater than 0 and at most one hour. */
        MILLISECONDS(" ms", " ms", 1),
        /** A count per sample interval; thresholds must be 0 or more. */
        PER_INTERVAL("", " per interval", 0);

        private static final double MAX_MILLIS = 3_600_000;
        private static final double MAX_COUNT = 1e9;

        private final String valueSuffix;
        private final String thresholdSuffix;
        private final int decimals;

        Unit(String valueSuffix, String thresholdSuffix, int decimals) {
            this.valueSuffix = valueSuffix;
            this.thresholdSuffix = thresholdSuffix;
            this.decimals = decimals;
        }

        /** Why {@code threshold} is not valid in this unit, or {@code null} if it is. */
        String thresholdProblem(double threshold) {
            // Comparisons are written so that NaN fails them.
            return switch (this) {
                case FRACTION ->
                    threshold > 0 && threshold <= 1
                            ? null
                            : "must be greater than 0 and at most 1, got " + plain(threshold);
                case MILLISECONDS ->
                    threshold > 0 && threshold <= MAX_MILLIS
                            ? null
                            : "must be greater than 0 and at most 3600000 (ms), got " + plain(threshold);
                case PER_INTERVAL ->
                    threshold >= 0 && threshold <= MAX_COUNT
                            ? null
                            : "must be at least 0 and at most 1e9, got " + plain(threshold);
            };
        }

        /** A value as a reject message shows it: {@code 0.953}, {@code 1530.4 ms}, {@code 7}. */
        String formatValue(double value) {
            return round(value, decimals) + valueSuffix;
        }

        /** A threshold as a reject message shows it: {@code 0.9}, {@code 1000 ms}, {@code 5 per interval}. */
        String formatThreshold(double threshold) {
            return plain(threshold) + thresholdSuffix;
        }

        private static String round(double value, int decimals) {
            if (!Double.isFinite(value)) {
                return Double.toString(value);
            }
            return BigDecimal.valueOf(value)
                    .setScale(decimals, RoundingMode.HALF_UP)
                    .stripTrailingZeros()
                    .toPlainString();
        }

        /** {@code 1000} rather than {@code 1000.0} or {@code 1E+3}: numbers as people type them. */
        static String plain(double value) {
            if (!Double.isFinite(value)) {
                return Double.toString(value);
            }
            return BigDecimal.valueOf(value).stripTrailingZeros().toPlainString();
        }
    }
}
