package io.sluice.status;

/**
 * Live figures of one topic, as {@code GET /api/v1/topics} reports them. Rates are per second over
 * the last sampling interval (about one second).
 */
public record TopicFigures(
        String protocol,
        String topic,
        double publishMessagesPerSecond,
        double publishBytesPerSecond,
        double dispatchMessagesPerSecond,
        double dispatchBytesPerSecond,
        long heldMessages,
        long heldBytes,
        long throttleEvents) {}
