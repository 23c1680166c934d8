package io.sluice.limits;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.sluice.settings.InvalidSettingsException;

/**
 * A rate of events of one scope, such as new client connections: {@code perSecond} events a
 * second, in a bucket of {@code perSecond x burstSeconds} (docs/REFERENCE.md, "Limits").
 *
 * @param perSecond events per second, or {@code null} for unlimited
 * @param burstSeconds bucket size in seconds of rate, 0.01 to 60; {@code null} means 1.0
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record EventRate(Double perSecond, Double burstSeconds) {

    /** @throws InvalidSettingsException naming the offending field */
    public EventRate {
        RateLimit.requireRate("perSecond", perSecond);
        burstSeconds = RateLimit.burstOrDefault(burstSeconds);
    }
}
