package io.sluice.kafka.connection;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.sluice.relay.FrameView;

/**
 * Responses from the broker, each lent by the decoder for the call and handed to the connection,
 * which matches it to its request, rewrites it where Sluice must and sends it on to the client.
 */
final class BrokerHandler extends ChannelInboundHandlerAdapter {

    private final KafkaConnection connection;

    BrokerHandler(KafkaConnection connection) {
        this.connection = connection;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        connection.response((FrameView) msg);
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) {
        connection.flushClient();
        ctx.fireChannelReadComplete();
    }

    @Override
    public void channelWritabilityChanged(ChannelHandlerContext ctx) {
        connection.brokerWritabilityChanged();
        ctx.fireChannelWritabilityChanged();
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        connection.close();
        ctx.fireChannelInactive();
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        connection.fail(cause);
    }
}
