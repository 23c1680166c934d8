package io.sluice.relay;

import io.netty.channel.Channel;

/**
 * Turns a channel's reading on and off for several independent reasons: reading resumes only
 * when no reason to pause remains. Confined to the channel's event loop.
 */
public final class ReadGate {

    /** The other side of the proxy cannot take more bytes now. */
    public static final int PEER_UNWRITABLE = 1;
    /** The connection holds or awaits more sends than the connection limits allow. */
    public static final int CONNECTION_LIMIT = 1 << 1;
    /** The upstream connection is not established yet. */
    public static final int CONNECTING = 1 << 2;
    /** Sluice is shutting down: no new commands are taken from the client. */
    public static final int DRAINING = 1 << 3;
    /** A quota gate holds one of the client's requests, or told the client to keep quiet for a while. */
    public static final int QUOTA = 1 << 4;
    /** The process holds too many bytes of incomplete frames, and this connection some of the most. */
    public static final int BUFFERED_BYTES = 1 << 5;

    private final Channel channel;
    private int reasons;

    public ReadGate(Channel channel) {
        this.channel = channel;
    }

    public void pause(int reason) {
        int before = reasons;
        reasons |= reason;
        if (before == 0) {
            channel.config().setAutoRead(false);
        }
    }

    public void resume(int reason) {
        if ((reasons & reason) == 0) {
            return;
        }
        reasons &= ~reason;
        if (reasons == 0) {
            channel.config().setAutoRead(true);
        }
    }

    /** Pauses for {@link #PEER_UNWRITABLE} while {@code peer} cannot take more bytes; resumes once it can. */
    public void followWritability(Channel peer) {
        if (peer.isWritable()) {
            resume(PEER_UNWRITABLE);
        } else {
            pause(PEER_UNWRITABLE);
        }
    }

    public boolean isPaused(int reason) {
        return (reasons & reason) != 0;
    }
}
