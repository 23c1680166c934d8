package io.sluice.relay;

/**
 * Where a proxied connection is in its life. Every transition goes through {@link #to}, which
 * fails loudly on one that cannot happen, so a connection never acts on a state it left.
 *
 * <p>Only Kafka's connection still uses this; it goes once Kafka runs on
 * {@link io.sluice.relay.connection.ProxiedConnection}, whose
 * {@link io.sluice.relay.connection.ConnectionState} carries each state's data.
 */
public enum ConnectionState {
    /** The client is connected; the upstream connection is not established yet. */
    CONNECTING,
    /** Both sides are connected and frames flow. */
    FORWARDING,
    /** Sluice is shutting down: no new commands from the client; what is held or awaited finishes. */
    DRAINING,
    /** Both sides are closed or closing; nothing is forwarded any more. */
    CLOSED;

    /**
     * The state after moving to {@code next}.
     *
     * @throws IllegalStateException for a transition the lifecycle does not allow
     */
    public ConnectionState to(ConnectionState next) {
        boolean allowed = switch (this) {
            case CONNECTING -> next == FORWARDING || next == CLOSED;
            case FORWARDING -> next == DRAINING || next == CLOSED;
            case DRAINING -> next == CLOSED;
            case CLOSED -> false;
        };
        if (!allowed) {
            throw new IllegalStateException("connection cannot go from " + this + " to " + next);
        }
        return next;
    }
}
