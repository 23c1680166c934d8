package io.sluice.limits;

/**
 * A part of a {@link Limit}, as a scope kind declares which parts it takes
 * ({@link ScopeKind#accepts()}): a topic's limit has rates of messages, a client address's rates
 * of new connections and of requests, a consumer group's rates of joins and offset commits, a
 * Kafka identity's rate of topic mutations.
 */
public enum LimitPart {
    /** Messages from producers ({@link Limit#publish()}). */
    PUBLISH("publish"),
    /** Messages to consumers ({@link Limit#dispatch()}). */
    DISPATCH("dispatch"),
    /** New client connections ({@link Limit#connections()}). */
    CONNECTIONS("connections"),
    /** Requests that create work on the broker ({@link Limit#requests()}). */
    REQUESTS("requests"),
    /** A consumer group's JoinGroup requests ({@link Limit#joinsPerMinute()}). */
    JOINS("joinsPerMinute"),
    /** A consumer group's OffsetCommit requests ({@link Limit#commitsPerMinute()}). */
    COMMITS("commitsPerMinute"),
    /** Kafka's topic mutations, in partitions ({@link Limit#mutations()}). */
    MUTATIONS("mutations");

    private final String field;

    LimitPart(String field) {
        this.field = field;
    }

    /** The part's field in a limit's JSON form: {@code publish}, {@code connections}, {@code joinsPerMinute}. */
    public String field() {
        return field;
    }

    /** Whether {@code limit} sets this part. */
    public boolean isSetIn(Limit limit) {
        return switch (this) {
            case PUBLISH -> limit.publish() != null;
            case DISPATCH -> limit.dispatch() != null;
            case CONNECTIONS -> limit.connections() != null;
            case REQUESTS -> limit.requests() != null;
            case JOINS -> limit.joinsPerMinute() != null;
            case COMMITS -> limit.commitsPerMinute() != null;
            case MUTATIONS -> limit.mutations() != null;
        };
    }
}
