package io.sluice.limits;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.sluice.settings.InvalidSettingsException;

/**
 * The limit of one scope (a topic, namespace, tenant, client address, consumer group or the whole
 * proxy). Which parts a scope takes is its kind's ({@link ScopeKind#accepts()}).
 *
 * <p>Made from JSON, or in code from one part and withers:
 * {@code Limit.publish(rates).withOnExceed(OnExceed.REJECT)}, {@code Limit.NONE} for no part.
 *
 * @param publish rates for messages from producers, or {@code null} for unlimited
 * @param dispatch rates for messages to consumers, or {@code null} for unlimited
 * @param connections the rate of new client connections, or {@code null} for unlimited
 * @param requests the rate of requests that create work on the broker (lookups, metadata, new producers
 *     and consumers), or {@code null} for unlimited
 * @param joinsPerMinute a consumer group's JoinGroup requests a minute, or {@code null} for unlimited
 * @param commitsPerMinute a consumer group's OffsetCommit requests a minute, or {@code null} for unlimited
 * @param mutations the rate of a Kafka identity's topic mutations, in partitions, or {@code null} for
 *     unlimited
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
        MutationRate mutations,
        OnExceed onExceed) {

    /** A limit that sets no part: unlimited, with the default {@code onExceed}. */
    public static final Limit NONE = new Limit(null, null, null, null, null, null, null, null);

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

    /** A limit of messages from producers alone. */
    public static Limit publish(RateLimit publish) {
        return NONE.withPublish(publish);
    }

    /** A limit of messages to consumers alone. */
    public static Limit dispatch(RateLimit dispatch) {
        return NONE.withDispatch(dispatch);
    }

    /** A limit of new connections alone. */
    public static Limit connections(EventRate connections) {
        return NONE.withConnections(connections);
    }

    /** A limit of requests that create work alone. */
    public static Limit requests(EventRate requests) {
        return NONE.withRequests(requests);
    }

    /** A limit of a consumer group's joins a minute alone. */
    public static Limit joinsPerMinute(Double joinsPerMinute) {
        return NONE.withJoinsPerMinute(joinsPerMinute);
    }

    /** A limit of a consumer group's offset commits a minute alone. */
    public static Limit commitsPerMinute(Double commitsPerMinute) {
        return NONE.withCommitsPerMinute(commitsPerMinute);
    }

    /** A limit of topic mutations alone. */
    public static Limit mutations(MutationRate mutations) {
        return NONE.withMutations(mutations);
    }

    /** This limit with {@code publish} for its rates of messages from producers. */
    public Limit withPublish(RateLimit publish) {
        return new Limit(
                publish, dispatch, connections, requests, joinsPerMinute, commitsPerMinute, mutations, onExceed);
    }

    /** This limit with {@code dispatch} for its rates of messages to consumers. */
    public Limit withDispatch(RateLimit dispatch) {
        return new Limit(
                publish, dispatch, connections, requests, joinsPerMinute, commitsPerMinute, mutations, onExceed);
    }

    /** This limit with {@code connections} for its rate of new connections. */
    public Limit withConnections(EventRate connections) {
        return new Limit(
                publish, dispatch, connections, requests, joinsPerMinute, commitsPerMinute, mutations, onExceed);
    }

    /** This limit with {@code requests} for its rate of requests that create work. */
    public Limit withRequests(EventRate requests) {
        return new Limit(
                publish, dispatch, connections, requests, joinsPerMinute, commitsPerMinute, mutations, onExceed);
    }

    /** This limit with {@code joinsPerMinute} for its group's joins a minute. */
    public Limit withJoinsPerMinute(Double joinsPerMinute) {
        return new Limit(
                publish, dispatch, connections, requests, joinsPerMinute, commitsPerMinute, mutations, onExceed);
    }

    /** This limit with {@code commitsPerMinute} for its group's offset commits a minute. */
    public Limit withCommitsPerMinute(Double commitsPerMinute) {
        return new Limit(
                publish, dispatch, connections, requests, joinsPerMinute, commitsPerMinute, mutations, onExceed);
    }

    /** This limit with {@code mutations} for its rate of topic mutations. */
    public Limit withMutations(MutationRate mutations) {
        return new Limit(
                publish, dispatch, connections, requests, joinsPerMinute, commitsPerMinute, mutations, onExceed);
    }

    /** This limit with {@code onExceed}; {@code null} for the default, {@link OnExceed#DELAY}. */
    public Limit withOnExceed(OnExceed onExceed) {
        return new Limit(
                publish, dispatch, connections, requests, joinsPerMinute, commitsPerMinute, mutations, onExceed);
    }

    /** The message rates of one direction, or {@code null} when it is unlimited or has none ({@link Direction#ACCEPT}). */
    public RateLimit rates(Direction direction) {
        return switch (direction) {
            case PUBLISH -> publish;
            case DISPATCH -> dispatch;
            case ACCEPT, GROUP, WORK, TOPIC -> null;
        };
    }
}
