package io.sluice.quota;

/** What a bucket counts. */
public enum Dimension {
    MESSAGES("msg/s", 1),
    BYTES("bytes/s", 1),
    CONNECTIONS("connections/s", 1),
    /** Requests that create work on the broker. */
    REQUESTS("requests/s", 1),
    /** A consumer group's JoinGroup requests, limited per minute. */
    JOINS("joins/min", 60),
    /** A consumer group's OffsetCommit requests, limited per minute. */
    COMMITS("commits/min", 60),
    /** Partitions created or deleted by Kafka's topic mutations. */
    MUTATIONS("partitions/s", 1);

    private final String rateUnit;
    private final int secondsPerUnit;

    Dimension(String rateUnit, int secondsPerUnit) {
        this.rateUnit = rateUnit;
        this.secondsPerUnit = secondsPerUnit;
    }

    /** The unit of a rate of this dimension, for messages to people: {@code msg/s}, {@code joins/min}. */
    public String rateUnit() {
        return rateUnit;
    }

    /** A rate per second in {@link #rateUnit()}: joins a second times 60 for joins a minute. */
    public double inRateUnit(double perSecond) {
        return perSecond * secondsPerUnit;
    }
}
