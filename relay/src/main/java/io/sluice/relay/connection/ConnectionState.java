package io.sluice.relay.connection;

import io.netty.channel.Channel;

/**
 * Where a proxied connection is in its life, each state with what exists in it and nothing more:
 * no upstream channel before one is being opened, no early frames once it is up. A transition is a
 * method of the state it leaves, so only a state where it is legal offers it;
 * {@link ProxiedConnection} makes every transition and fails loudly when asked for one its state
 * does not offer.
 *
 * <pre>
 * Accepted --connecting--&gt; Connecting --forwarding--&gt; Forwarding --draining--&gt; Draining
 *    ^                         |
 *    +--------failed-----------+          every state but Closed --close--&gt; Closed
 * </pre>
 */
public sealed interface ConnectionState
        permits ConnectionState.Accepted,
                ConnectionState.Connecting,
                ConnectionState.Connected,
                ConnectionState.Closed {

    /** The one closed state. */
    Closed CLOSED = new Closed();

    /**
     * The client is connected and no upstream connection is being opened: none was asked for yet,
     * or the last attempt failed (its frames still wait in {@code early}, for the next attempt).
     */
    record Accepted(EarlyFrames early) implements ConnectionState {

        /** Opening the upstream connection {@code attempt}. */
        Connecting connecting(Channel attempt) {
            return new Connecting(early, attempt);
        }
    }

    /**
     * The upstream connection {@code attempt} is being opened (TCP, then TLS where the upstream
     * speaks it); frames for it wait in {@code early}, in order.
     */
    record Connecting(EarlyFrames early, Channel attempt) implements ConnectionState {

        /** The attempt failed; its frames wait for another. */
        Accepted failed() {
            return new Accepted(early);
        }

        /** The attempt is up: the early frames are written to it, first of all. */
        Forwarding forwarding(Upstream upstream) {
            early.writeTo(upstream.channel());
            return new Forwarding(upstream);
        }
    }

    /** A state with an upstream connection that is up. */
    sealed interface Connected extends ConnectionState permits Forwarding, Draining {

        /** The upstream connection, its outbound frames, reads and decoder. */
        Upstream upstream();
    }

    /** Both sides are connected and frames flow. */
    record Forwarding(Upstream upstream) implements Connected {

        /** Sluice shuts down: no new requests from the client. */
        Draining draining() {
            return new Draining(upstream);
        }
    }

    /**
     * Sluice is shutting down: no new requests are taken from the client; what is held or awaits
     * an answer finishes, and the connection closes when its protocol is idle.
     */
    record Draining(Upstream upstream) implements Connected {}

    /** Both sides are closed or closing; nothing is forwarded any more. */
    record Closed() implements ConnectionState {}
}
