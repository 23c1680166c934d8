package io.sluice.frontend;

/**
 * One protocol's ports at run time, made by {@link FrontEndConfig#open}: it binds on the server's
 * event loops, serves client connections to its upstream, says whether its upstream can be
 * reached, and drains on shutdown. The server treats every front end alike: {@link #start()} and
 * {@link #checkUpstream()} once, then {@link #checkUpstream()} every two seconds, and on SIGTERM
 * {@link #drain()}, {@link #openConnections()} until none is left or the drain timeout passed,
 * then {@link #close()}. It is ready ({@code /readyz}) while its first port listens and its last
 * upstream check succeeded.
 *
 * <p>A front end binds its ports through the {@link ClientPorts} it got from
 * {@link FrontEndContext#ports}; its port number, drain, the connection count and close then need
 * no code of its own. A minimal one:
 *
 * <pre>{@code
 * final class LineFrontEnd implements FrontEnd {
 *     private final ClientPorts ports;   // context.ports(waterMark), in the constructor
 *
 *     public void start() throws InterruptedException {
 *         ports.bind(config.listen().host(), config.listen().port(), new LineChannelInitializer(...)).sync();
 *     }
 *     public ClientPorts ports() { return ports; }
 *     public String describe() { return "line protocol on " + ports.address() + " (upstream ...)"; }
 *     public boolean checkUpstream() { return config.upstream().acceptsConnections(Duration.ofSeconds(1)); }
 * }
 * }</pre>
 *
 * <p>Threads: {@link #start()}, {@link #describe()}, {@link #drain()} and {@link #close()} run on
 * the thread that starts or stops the server, {@link #checkUpstream()} there once and then on the
 * server's sampler thread (it may block, never on an event loop), {@link #openConnections()} on
 * any thread.
 */
public interface FrontEnd extends AutoCloseable {

    /** Binds the client port; returns once connections are accepted. */
    void start() throws InterruptedException;

    /**
     * For the ready log line, e.g.
     * {@code Pulsar protocol on 0.0.0.0:6650 (upstream pulsar://b:6650, lookup mode rewrite)}.
     */
    String describe();

    /** The port clients connect to first (useful when started on port 0); after {@link #start()}. */
    default int port() {
        return ports().address().getPort();
    }

    /** Whether the upstream accepts connections now. */
    boolean checkUpstream();

    /** The ports it bound, and the client connections they accepted. */
    ClientPorts ports();

    /** Stops accepting and asks every client connection to finish what it holds, then close. */
    default void drain() {
        ports().drain();
    }

    /** Client connections still open. */
    default int openConnections() {
        return ports().openConnections();
    }

    /** Closes the ports and every connection. */
    @Override
    default void close() {
        ports().close();
    }
}
