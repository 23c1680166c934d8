package io.sluice.admission;

/** The state of one request type's breaker. */
public enum BreakerState {
    /** Healthy: admit everything. */
    CLOSED,
    /** Overloaded: reject everything until the cool-down has passed. */
    OPEN,
    /** Probing after a cool-down: admit a configured share, reject the rest. */
    HALF_OPEN;

    /**
     * The value of the {@code sluice_admission_state} gauge, ordered by severity so that a graph
     * reads naturally: 0 closed, 1 half-open, 2 open.
     */
    public int metricValue() {
        return switch (this) {
            case CLOSED -> 0;
            case HALF_OPEN -> 1;
            case OPEN -> 2;
        };
    }
}
