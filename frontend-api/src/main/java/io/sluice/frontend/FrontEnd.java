package io.sluice.frontend;

/**
 * One protocol's ports at run time, made by {@link FrontEndConfig#open}: it binds on the server's
 * event loops, serves client connections to its upstream, says whether it is ready, and drains on
 * shutdown. The server treats every front end alike: {@link #start()} once, then
 * {@link #checkUpstream()} every two seconds, {@link #isReady()} whenever {@code /readyz} is asked,
 * and on SIGTERM {@link #drain()}, {@link #openConnections()} until none is left or the drain
 * timeout passed, then {@link #close()}.
 *
 * <p>A front end binds its ports through the {@link ClientPorts} it got from
 * {@link FrontEndContext#ports}; drain, the connection count and close then need no code of its
 * own. A minimal one:
 *
 * <pre>{@code
 * final class LineFrontEnd implements FrontEnd {
 *     private final ClientPorts ports;
 *     private Channel listener;
 *     private volatile boolean upstreamReachable;
 *
 *     public void start() throws InterruptedException {
 *         listener = ports.bind(config.listen().host(), config.listen().port(), new LineChannelInitializer(...))
 *                 .sync().channel();
 *         checkUpstream();
 *     }
 *     public ClientPorts ports() { return ports; }
 *     public int port() { return ((InetSocketAddress) listener.localAddress()).getPort(); }
 *     public String describe() { return "line protocol on " + listener.localAddress() + " (upstream ...)"; }
 *     public boolean isReady() { return !ports.closing() && listener.isActive() && upstreamReachable; }
 *     public void checkUpstream() { upstreamReachable = ...a TCP connect with a 1 s timeout...; }
 * }
 * }</pre>
 *
 * <p>Threads: {@link #start()}, {@link #describe()}, {@link #drain()} and {@link #close()} run on
 * the thread that starts or stops the server, {@link #checkUpstream()} on the server's sampler
 * thread (it may block, never on an event loop), {@link #isReady()} and {@link #openConnections()}
 * on any thread.
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
    int port();

    /** Listening and the upstream accepts connections. */
    boolean isReady();

    /** Checks whether the upstream accepts connections. */
    void checkUpstream();

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
