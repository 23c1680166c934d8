package io.sluice.limits;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.sluice.settings.InvalidSettingsException;

/**
 * The limit of one scope (a topic, namespace, tenant or the whole proxy).
 *
 * @param publish rates for messages from producers, or {@code null} for unlimited
 * @param dispatch rates for messages to consumers, or {@code null} for unlimited
 * @param onExceed what to do with an over-quota message; {@code null} means {@link OnExceed#DELAY}
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record Limit(RateLimit publish, RateLimit dispatch, OnExceed onExceed) {

    public Limit {
        if (dispatch != null && dispatch.adaptive() != null) {
            throw new InvalidSettingsException(
                    "dispatch.adaptive", "adaptive rates follow the upstream's publish latency: publish only");
        }
        if (onExceed == null) {
            onExceed = OnExceed.DELAY;
        }
    }

    /** The rates for one direction, or {@code null} when that direction is unlimited. */
    public RateLimit rates(Direction direction) {
        return direction == Direction.PUBLISH ? publish : dispatch;
    }
}
