package io.sluice.relay.connection;

import java.net.InetSocketAddress;
import java.util.List;

/**
 * Where the upstream of a connection whose protocol does not open it itself is opened, once the
 * first frame goes to it ({@link ProxiedConnection#connectAtFirstFrame}): the addresses to try, in
 * turn. A failed attempt, TCP or TLS, goes on to the next address; with none left, or none known,
 * the connection closes. Its {@code toString} names it in log lines ("bootstrap servers [...]").
 */
@FunctionalInterface
public interface UpstreamTargets {

    /**
     * The addresses to try, in order, unresolved (the relay resolves them without blocking); empty
     * when none is known yet. Asked once per connection, on its event loop, when its first frame
     * goes upstream.
     */
    List<InetSocketAddress> addresses();
}
