package io.sluice.admission;

/**
 * A signal found over its threshold by a sample.
 *
 * @param signal the breached signal
 * @param value its sampled value, in the signal's unit
 * @param threshold the threshold it exceeded
 */
public record Breach(Signal signal, double value, double threshold) {

    /** The breach as people read it: {@code upstream_latency_p99 1530 ms > 1000 ms}. */
    public String describe() {
        return signal.jsonName() + " " + signal.unit().formatValue(value) + " > "
                + signal.unit().formatThreshold(threshold);
    }

    /**
     * How far over its threshold the signal is, for choosing the worst of several breaches:
     * 1.5 is 50 % over. A zero threshold is infinitely far over.
     */
    double severity() {
        return threshold == 0 ? Double.POSITIVE_INFINITY : value / threshold;
    }
}
