package io.sluice.relay.connection;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.sluice.relay.Drain;
import io.sluice.relay.FrameView;
import io.sluice.relay.ProxyStats;
import io.sluice.relay.ReadGate;

/**
 * The last handler of an accepted client's pipeline: opens its {@link ProxiedConnection} when the
 * client connects, hands each frame to the front end's protocol (counting its bytes once a read),
 * and relays what the
 * channel says to the connection: the end of a read (flush), writability (the upstream's reads
 * follow it), a drain request, its decoder's {@link FrameDecoder.Reads}, the channel's close and
 * failures. A handler before framing (the PROXY protocol's) may hold back {@code channelActive}
 * until it knows the client's address; a channel that closes or drains before then had no
 * connection opened.
 */
final class ClientHandler extends ChannelInboundHandlerAdapter {

    private final ConnectionSpec spec;
    private final ConnectionProtocol.Factory protocols;
    private final FrameDecoder frames;
    private final HandshakeDeadline deadline;
    private final ProxyStats stats;
    private ProxiedConnection connection;
    private ConnectionProtocol protocol;
    /** Bytes of the frames of this read: counted once a read, not once a frame. */
    private long readBytes;

    ClientHandler(
            ConnectionSpec spec,
            ConnectionProtocol.Factory protocols,
            FrameDecoder frames,
            HandshakeDeadline deadline) {
        this.spec = spec;
        this.protocols = protocols;
        this.frames = frames;
        this.deadline = deadline;
        this.stats = spec.services().stats();
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) {
        connection = new ProxiedConnection(ctx.channel(), spec, frames, deadline, protocols);
        protocol = connection.protocol();
        connection.opened();
        ctx.fireChannelActive();
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        FrameView frame = (FrameView) msg;
        readBytes += frame.length();
        connection.clock().frameRead();
        protocol.fromClient(frame);
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) {
        if (connection == null) {
            ctx.fireChannelReadComplete();
            return;
        }
        connection.clock().readComplete();
        if (readBytes > 0) {
            stats.bytesFromClient(readBytes);
            readBytes = 0;
        }
        connection.flush();
        ctx.fireChannelReadComplete();
    }

    @Override
    public void channelWritabilityChanged(ChannelHandlerContext ctx) {
        if (connection != null) {
            connection.clientWritabilityChanged();
        }
        ctx.fireChannelWritabilityChanged();
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object event) {
        if (connection == null) {
            if (event == Drain.REQUEST) {
                ctx.close();
            } else {
                ctx.fireUserEventTriggered(event);
            }
        } else if (event == Drain.REQUEST) {
            connection.drain();
        } else if (event == FrameDecoder.Reads.STOP) {
            connection.pauseClient(ReadGate.BUFFERED_BYTES);
        } else if (event == FrameDecoder.Reads.RESUME) {
            connection.resumeClient(ReadGate.BUFFERED_BYTES);
        } else {
            ctx.fireUserEventTriggered(event);
        }
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        if (connection != null) {
            connection.close();
        }
        ctx.fireChannelInactive();
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        if (connection == null) {
            ctx.close();
            return;
        }
        connection.fail(cause);
    }
}
