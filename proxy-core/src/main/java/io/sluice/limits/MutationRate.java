package io.sluice.limits;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.sluice.settings.InvalidSettingsException;

/**
 * A rate of topic mutations of one Kafka identity, counted in partitions as Kafka's controller
 * mutation quota counts them (KIP-599): {@code partitionsPerSecond} partitions created or deleted
 * a second, in a bucket of {@code partitionsPerSecond x burstSeconds} (docs/REFERENCE.md, "Topic
 * mutations").
 *
 * @param partitionsPerSecond partitions a second, or {@code null} for unlimited
 * @param burstSeconds bucket size in seconds of rate, 0.01 to 60; {@code null} means 1.0
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record MutationRate(Double partitionsPerSecond, Double burstSeconds) {

    /** @throws InvalidSettingsException naming the offending field */
    public MutationRate {
        RateLimit.requireRate("partitionsPerSecond", partitionsPerSecond);
        burstSeconds = RateLimit.burstOrDefault(burstSeconds);
    }
}
