package io.sluice.relay;

import io.netty.channel.Channel;

/**
 * Asks a client connection to wind down for a graceful shutdown: Sluice stops reading new commands
 * from the client, keeps forwarding what it holds and relaying the broker's answers, and closes
 * the connection as soon as no send of it is held or awaiting its receipt. The client then
 * reconnects elsewhere and resends only what the broker never acknowledged.
 *
 * <p>The request travels as the user event {@link #REQUEST} through the client channel's
 * pipeline; each front end's connection handler acts on it.
 */
public final class Drain {

    /** The user event a front end's connection handler drains on. */
    public static final Drain REQUEST = new Drain();

    private Drain() {}

    /** Starts draining {@code client}, a client channel of any front end; thread-safe. */
    public static void request(Channel client) {
        client.eventLoop().execute(() -> client.pipeline().fireUserEventTriggered(REQUEST));
    }
}
