package io.sluice.admin.http;

import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.util.ReferenceCountUtil;

/**
 * Judges each request on its head, before any of its body is read, and answers the ones it refuses
 * at once: their bodies are then read and discarded part by part, never buffered. A refused request
 * that expects {@code 100 Continue} sends no body after the answer, so the connection closes with it
 * (nothing else would tell where the next request starts). One instance per connection.
 */
abstract class RequestScreen extends ChannelInboundHandlerAdapter {

    private boolean discarding;

    /**
     * The answer to a request refused on its head, or null to let it through.
     *
     * @param ctx the connection's context, for what the judgement needs of the connection
     */
    protected abstract ApiResponse refusal(ChannelHandlerContext ctx, HttpRequest request);

    /** Whether a refusal also ends the connection; by default only when the stream cannot go on. */
    protected boolean closesOnRefusal() {
        return false;
    }

    @Override
    public final void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (discarding && msg instanceof HttpContent) {
            discarding = !(msg instanceof LastHttpContent);
            ReferenceCountUtil.release(msg);
            return;
        }
        if (msg instanceof HttpRequest request) {
            ApiResponse refusal = refusal(ctx, request);
            if (refusal != null) {
                discarding = !(msg instanceof LastHttpContent);
                ReferenceCountUtil.release(msg);
                answer(ctx, request, refusal);
                return;
            }
        }
        ctx.fireChannelRead(msg);
    }

    private void answer(ChannelHandlerContext ctx, HttpRequest request, ApiResponse refusal) {
        FullHttpResponse response = refusal.toHttp(request.protocolVersion());
        if (closesOnRefusal() || HttpUtil.is100ContinueExpected(request)) {
            response.headers().set(HttpHeaderNames.CONNECTION, HttpHeaderValues.CLOSE);
            ctx.writeAndFlush(response).addListener(ChannelFutureListener.CLOSE);
        } else {
            ctx.writeAndFlush(response);
        }
    }
}
