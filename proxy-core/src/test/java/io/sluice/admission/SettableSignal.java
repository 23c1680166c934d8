package io.sluice.admission;

/** A signal source whose value a test sets; NaN (unknown) until then. */
final class SettableSignal implements SignalSource {

    private volatile double value = Double.NaN;

    void set(double newValue) {
        value = newValue;
    }

    @Override
    public double read(long nowNanos) {
        return value;
    }
}
