package io.sluice.limits;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.sluice.settings.InvalidSettingsException;

/**
 * The limit of one scope (a topic, namespace, tenant, client address, consumer group or the whole
 * proxy). Which parts a scope takes is its kind's ({@link ScopeKind#accepts()}).
 *
 * @param publish rates for messages from producers, or {@code null} for unlimited
 * @param dispatch rates for messages to consumers, or {@code null} for unlimited
 * @param connections the rate of new client connections, or {@code null} for unlimited
 * @param requests the rate of requests that create work on the broker (lookups, metadata, new producers
 *     and consumers), or {@code null} for unlimited
 * @param joinsPerMinute a consumer group's JoinGroup requests a minute, or {@code null} for unlimited
 * @param commitsPerMinute a consumer group's OffsetCommit requests a minute, or {@code null} for unlimited
 * @param onExceed what to do with an over-quota message; {@code null} means {@link OnExceed#DELAY}
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record Limit(
        RateLimit publish,
        RateLimit dispatch,
        EventRate connections,
        EventRate requests,
        Double joinsPerMinute,
        Double commitsPerMinute,
        OnExceed onExceed) {

    /** A group's bucket holds one minute of its rate: a rebalance of as many members as the rate passes at once. */
    public static final double GROUP_BURST_SECONDS = 60.0;

    public Limit {
        if (dispatch != null && dispatch.adaptive() != null) {
            throw new InvalidSettingsException(
                    "dispatch.adaptive", "adaptive rates follow the upstream's publish latency: publish only");
        }
        RateLimit.requireRate("joinsPerMinute", joinsPerMinute);
        RateLimit.requireRate("commitsPerMinute", commitsPerMinute);
        if (onExceed == null) {
            onExceed = OnExceed.DELAY;
        }
    }

    /** The message rates of one direction, or {@code null} when it is unlimited or has none ({@link Direction#ACCEPT}). */
    public RateLimit rates(Direction direction) {
        return switch (direction) {
            case PUBLISH -> publish;
            case DISPATCH -> dispatch;
            case ACCEPT, GROUP, WORK -> null;
        };
    }
}
