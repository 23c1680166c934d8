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
 * Accepted --awaitingFirstFrame--&gt; AwaitingFirstFrame --firstFrame--&gt; Accepted
 *
 * Accepted --connecting--&gt; Connecting --forwarding--&gt; Forwarding --draining--&gt; Draining
 *    ^                         |
 *    +--------failed-----------+          every state but Closed --close--&gt; Closed
 * </pre>
 *
 * A protocol opens the upstream itself from {@code Accepted} (Pulsar at the client's CONNECT), or
 * declares at its construction that the first frame for the upstream opens it
 * ({@code AwaitingFirstFrame}, Kafka's connections): that frame takes the connection back to
 * {@code Accepted} and on at once to {@code Connecting}, to the first of the declared addresses.
 */
public sealed interface ConnectionState
        permits ConnectionState.Accepted,
                ConnectionState.AwaitingFirstFrame,
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

        /** The protocol declared that the first frame for the upstream opens it, at {@code targets}. */
        AwaitingFirstFrame awaitingFirstFrame(UpstreamTargets targets) {
            return new AwaitingFirstFrame(early, targets);
        }
    }

    /**
     * The client is connected and the upstream opens when the first frame goes to it, at the
     * addresses of {@code targets} in turn; no attempt is running yet, and {@code early} is empty.
     */
    record AwaitingFirstFrame(EarlyFrames early, UpstreamTargets targets) implements ConnectionState {

        /** The first frame for the upstream: its connection is to be opened now. */
        Accepted firstFrame() {
            return new Accepted(early);
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
