package io.sluice.limits;

import java.util.Locale;

/**
 * A part of a {@link Limit}, as a scope kind declares which parts it takes
 * ({@link ScopeKind#accepts()}): a topic's limit has rates of messages, a client address's a rate
 * of new connections.
 */
public enum LimitPart {
    /** Messages from producers ({@link Limit#publish()}). */
    PUBLISH,
    /** Messages to consumers ({@link Limit#dispatch()}). */
    DISPATCH,
    /** New client connections ({@link Limit#connections()}). */
    CONNECTIONS;

    /** The part's field in a limit's JSON form: {@code publish}, {@code connections}. */
    public String field() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** Whether {@code limit} sets this part. */
    public boolean isSetIn(Limit limit) {
        return switch (this) {
            case PUBLISH -> limit.publish() != null;
            case DISPATCH -> limit.dispatch() != null;
            case CONNECTIONS -> limit.connections() != null;
        };
    }
}
