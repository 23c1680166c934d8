package io.sluice.relay;

import io.netty.channel.ChannelHandlerContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.net.SocketAddress;

/**
 * Client connections closed before they open, for one cause (their PROXY protocol header, their
 * address's rate of new connections): each counted in {@code sluice_connections_refused_total} by
 * its reason and logged with the client's address, at most once per
 * {@link RepeatedWarning#INTERVAL} for the cause, so a flood cannot flood the log. Thread-safe.
 */
public final class RefusedConnections {

    private static final Logger log = LoggerFactory.getLogger(RefusedConnections.class);

    private final RepeatedWarning warning = new RepeatedWarning();

    /**
     * Counts, logs and closes {@code ctx}'s connection.
     *
     * @param client the address to log
     * @param connections what the port's connections are called: {@code Kafka connection}
     * @param reason the {@code reason} label
     * @param why the log line's account of it
     */
    public void refuse(
            ChannelHandlerContext ctx,
            SocketAddress client,
            String connections,
            ProxyStats stats,
            String reason,
            String why) {
        count(client, connections, stats, reason, why);
        ctx.close();
    }

    /** Counts and logs a connection the caller closes, as {@link #refuse} does. */
    public void count(SocketAddress client, String connections, ProxyStats stats, String reason, String why) {
        stats.connectionRefused(reason);
        long leftOut = warning.admit();
        if (leftOut >= 0) {
            log.warn(
                    "Closing {} from {}: {} ({}){}",
                    connections,
                    client,
                    why,
                    reason,
                    RepeatedWarning.leftOut(leftOut));
        }
    }
}
