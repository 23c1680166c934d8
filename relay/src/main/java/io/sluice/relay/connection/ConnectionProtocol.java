package io.sluice.relay.connection;

import io.sluice.relay.FrameView;

/**
 * A front end's part of one proxied connection: what its protocol does with the frames of either
 * side. The {@link ProxiedConnection} it is made for does everything else (states, the upstream
 * connect, reads and writes, flushing, back-pressure, the handshake deadline, drain, close); see
 * there for how a front end uses it.
 *
 * <p>Every method runs on the connection's event loop, and none after {@link #closed()}. Frames
 * are lent for the call ({@link FrameView}): forwarded unchanged through the connection's
 * {@code toUpstream}/{@code toClient} they cost nothing; one kept past the call is taken with
 * {@link FrameView#retainedSlice()}. An exception thrown here fails the connection (a
 * {@link io.sluice.relay.MalformedFrameException} is counted by its reason).
 */
public interface ConnectionProtocol {

    /** Makes the protocol side of a connection, once per accepted client. */
    @FunctionalInterface
    interface Factory {

        /**
         * The protocol of {@code connection}, which it may use from its constructor on (an
         * {@link io.sluice.relay.Outbound} for its gates, the event loop for their timers); one that
         * does not open the upstream itself declares here where its first frame opens it
         * ({@link ProxiedConnection#connectAtFirstFrame}). A connection to refuse at once is closed
         * from {@link #opened()}, not from here.
         */
        ConnectionProtocol open(ProxiedConnection connection);
    }

    /** The client connection is counted open: a front end may refuse it at once by closing it. */
    default void opened() {}

    /** A frame from the client. */
    void fromClient(FrameView frame);

    /** A frame from the upstream. */
    void fromUpstream(FrameView frame);

    /**
     * Whether nothing of the client's awaits the upstream's answer or is held: a draining
     * connection closes once it is.
     */
    boolean isIdle();

    /**
     * The connection has closed: let go of what the protocol holds (held frames, timers, requests
     * in flight). What is sent either way from now on is dropped.
     */
    void closed();
}
