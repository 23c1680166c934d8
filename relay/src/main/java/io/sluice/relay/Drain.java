package io.sluice.relay;

import io.netty.channel.Channel;

/**
 * Asks a client connection to wind down for a graceful shutdown: Sluice stops reading new commands
 * from the client, keeps forwarding what it holds and relaying the broker's answers, and closes
 * the connection as soon as no send of it is held or awaiting its receipt. The client then
 * reconnects elsewhere and resends only what the broker never acknowledged.
 */
public final class Drain {

    public static final Drain REQUEST = new Drain();

    private Drain() {
    }

    /** Starts draining {@code client}, a channel set up by {@link ClientChannelInitializer}; thread-safe. */
    public static void request(Channel client) {
        client.eventLoop().execute(() -> client.pipeline().fireUserEventTriggered(REQUEST));
    }
}
