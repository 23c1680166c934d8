package io.sluice.admin.http;

import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPipeline;
import io.netty.handler.codec.http.FullHttpMessage;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpMessage;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.util.ReferenceCountUtil;

/**
 * Aggregates a request into one {@link io.netty.handler.codec.http.FullHttpRequest} of at most
 * {@code maxBytes} body bytes, and answers a larger one with a JSON 413 (Netty's own 413 has no
 * body). A request whose declared length is too large is refused before its body is read; the
 * body is then skipped and the connection kept. A chunked body that outgrows the limit midway
 * leaves the stream unrecoverable, so that connection is closed.
 */
public final class BodySizeLimit extends HttpObjectAggregator {

    private final int maxBytes;

    public BodySizeLimit(int maxBytes) {
        super(maxBytes);
        this.maxBytes = maxBytes;
    }

    @Override
    protected Object newContinueResponse(HttpMessage start, int maxContentLength, ChannelPipeline pipeline) {
        Object response = super.newContinueResponse(start, maxContentLength, pipeline);
        if (response instanceof HttpResponse refusal
                && HttpResponseStatus.REQUEST_ENTITY_TOO_LARGE.equals(refusal.status())) {
            ReferenceCountUtil.release(response);
            return tooLarge(start);
        }
        return response;
    }

    @Override
    protected void handleOversizedMessage(ChannelHandlerContext ctx, HttpMessage oversized) throws Exception {
        if (!(oversized instanceof HttpRequest request)) {
            super.handleOversizedMessage(ctx, oversized);
            return;
        }
        FullHttpResponse response = tooLarge(request);
        boolean close = oversized instanceof FullHttpMessage
                || !HttpUtil.isKeepAlive(request) && !HttpUtil.is100ContinueExpected(request);
        if (close) {
            response.headers().set(HttpHeaderNames.CONNECTION, HttpHeaderValues.CLOSE);
            ctx.writeAndFlush(response).addListener(ChannelFutureListener.CLOSE);
        } else {
            ctx.writeAndFlush(response).addListener(ChannelFutureListener.CLOSE_ON_FAILURE);
        }
    }

    private FullHttpResponse tooLarge(HttpMessage request) {
        return ApiResponse.error(
                        HttpResponseStatus.REQUEST_ENTITY_TOO_LARGE, "body: must be at most " + maxBytes + " bytes")
                .toHttp(request.protocolVersion());
    }
}
