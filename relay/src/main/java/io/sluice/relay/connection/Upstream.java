package io.sluice.relay.connection;

import io.netty.channel.Channel;
import io.sluice.relay.OutboundFrames;
import io.sluice.relay.ReadGate;

/**
 * The upstream side of a connection once it is up: its channel, the frames on their way to it,
 * the reasons its reads are paused, and its decoder. Only its {@link ProxiedConnection} touches
 * them; a front end sees the upstream through the connection's {@code toUpstream}. Confined to the
 * connection's event loop.
 */
public final class Upstream {

    private final Channel channel;
    private final OutboundFrames out;
    private final ReadGate reads;
    private final FrameDecoder frames;

    Upstream(Channel channel, FrameDecoder frames) {
        this.channel = channel;
        this.out = new OutboundFrames(channel);
        this.reads = new ReadGate(channel);
        this.frames = frames;
    }

    Channel channel() {
        return channel;
    }

    OutboundFrames out() {
        return out;
    }

    ReadGate reads() {
        return reads;
    }

    FrameDecoder frames() {
        return frames;
    }

    /** Lends no more frames and closes the channel once what was written to it is flushed. */
    void close() {
        frames.pause();
        OutboundFrames.closeWhenFlushed(channel);
    }

    @Override
    public String toString() {
        return String.valueOf(channel.remoteAddress());
    }
}
