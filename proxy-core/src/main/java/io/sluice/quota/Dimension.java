package io.sluice.quota;

/** What a bucket counts. */
public enum Dimension {
    MESSAGES("msg/s"),
    BYTES("bytes/s"),
    CONNECTIONS("connections/s");

    private final String rateUnit;

    Dimension(String rateUnit) {
        this.rateUnit = rateUnit;
    }

    /** The unit of a rate of this dimension, for messages to people: {@code msg/s}, {@code bytes/s}. */
    public String rateUnit() {
        return rateUnit;
    }
}
