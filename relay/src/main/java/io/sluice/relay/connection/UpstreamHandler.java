package io.sluice.relay.connection;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.sluice.relay.FrameView;

/**
 * The last handler of an upstream channel's pipeline: hands each frame to the front end's
 * protocol and relays what the channel says to its connection: the end of a read (flush, and a
 * draining connection closes if it is idle now), writability (the client's reads follow it), the
 * channel's close and failures. A channel the connection has moved on from (a failed attempt)
 * closes nothing but itself.
 */
final class UpstreamHandler extends ChannelInboundHandlerAdapter {

    private final ProxiedConnection connection;
    private final ConnectionProtocol protocol;

    UpstreamHandler(ProxiedConnection connection, ConnectionProtocol protocol) {
        this.connection = connection;
        this.protocol = protocol;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        connection.clock().frameRead();
        protocol.fromUpstream((FrameView) msg);
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) {
        connection.clock().readComplete();
        connection.upstreamReadComplete();
        ctx.fireChannelReadComplete();
    }

    @Override
    public void channelWritabilityChanged(ChannelHandlerContext ctx) {
        connection.upstreamWritabilityChanged(ctx.channel());
        ctx.fireChannelWritabilityChanged();
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        connection.upstreamClosed(ctx.channel());
        ctx.fireChannelInactive();
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        connection.upstreamException(ctx.channel(), cause);
    }
}
