package io.sluice.server;

import io.sluice.relay.ProxyStats;

/**
 * One protocol's port: it binds on the server's event loops, serves client connections to its
 * upstream, says whether it is ready, and drains on shutdown. The server starts one per protocol
 * configured and treats them alike.
 */
interface FrontEnd extends AutoCloseable {

    /** Binds the client port; returns once connections are accepted. */
    void start() throws InterruptedException;

    /** For the ready log line, e.g. {@code Pulsar protocol on 0.0.0.0:6650 (upstream pulsar://b:6650, lookup mode rewrite)}. */
    String describe();

    /** Listening and the upstream accepts connections; read from any thread. */
    boolean isReady();

    /** Checks whether the upstream accepts connections; runs on the sampler thread, never on an event loop. */
    void checkUpstream();

    /** Stops accepting and asks every client connection to finish what it holds, then close. */
    void drain();

    /** Client connections still open. */
    int openConnections();

    /** Its connection counters, labelled with its protocol. */
    ProxyStats stats();

    /** Closes the port and every connection. */
    @Override
    void close();
}
