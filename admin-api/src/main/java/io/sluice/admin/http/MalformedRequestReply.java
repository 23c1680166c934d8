package io.sluice.admin.http;

import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandler.Sharable;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.util.ReferenceCountUtil;

/**
 * Answers 400 to a request the HTTP decoder could not read (bad request line, oversized headers)
 * and closes the connection, since the decoder cannot find the next request in that stream.
 */
@Sharable
public final class MalformedRequestReply extends ChannelInboundHandlerAdapter {

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (msg instanceof FullHttpRequest request && request.decoderResult().isFailure()) {
            String cause = String.valueOf(request.decoderResult().cause().getMessage());
            ReferenceCountUtil.release(request);
            FullHttpResponse response = ApiResponse.error(
                            HttpResponseStatus.BAD_REQUEST, "malformed HTTP request: " + cause)
                    .toHttp(HttpVersion.HTTP_1_1);
            response.headers().set(HttpHeaderNames.CONNECTION, HttpHeaderValues.CLOSE);
            ctx.writeAndFlush(response).addListener(ChannelFutureListener.CLOSE);
            return;
        }
        ctx.fireChannelRead(msg);
    }
}
