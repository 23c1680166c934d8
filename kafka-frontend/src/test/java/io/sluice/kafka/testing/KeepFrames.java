package io.sluice.kafka.testing;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.sluice.relay.FrameView;

/**
 * Behind a decoder in a test pipeline: keeps each frame the decoder lends as a buffer of its own
 * ({@link FrameView#retainedSlice()}) and passes that on, where the test reads it with
 * {@code readInbound} and must release it.
 */
public final class KeepFrames extends ChannelInboundHandlerAdapter {

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        ctx.fireChannelRead(((FrameView) msg).retainedSlice());
    }
}
