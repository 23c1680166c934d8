package io.sluice.admin.http;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.http.EmptyHttpHeaders;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.QueryStringDecoder;
import io.netty.util.ReferenceCountUtil;
import io.netty.util.concurrent.ScheduledFuture;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * The whole of a connection accepted past the admin connection cap: it reads the request line
 * alone, answers a probe ({@code GET /healthz}, {@code GET /readyz}) or 503 for anything else, and
 * closes. Nothing behind the request line is decoded, so a flood of connections that pipeline
 * requests costs each one a socket and one small buffer, and the kubelet's probes are still
 * answered. Sits behind Netty's response encoder (and the TLS handler, with HTTPS); the channel does
 * not read on its own, this handler asks for each read. One instance per connection.
 */
public final class PastCapReply extends ChannelInboundHandlerAdapter {

    /** A request line longer than this is not a probe. */
    static final int MAX_LINE = 512;

    private final RouteTable routes;
    private final int maxConnections;
    private final Duration timeout;
    private final StringBuilder line = new StringBuilder(64);
    private boolean answered;
    private ScheduledFuture<?> deadline;

    /**
     * @param maxConnections the cap, for the answer
     * @param timeout        how long the client has to send its request line
     */
    public PastCapReply(RouteTable routes, int maxConnections, Duration timeout) {
        this.routes = routes;
        this.maxConnections = maxConnections;
        this.timeout = timeout;
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) {
        deadline = ctx.executor().schedule(() -> ctx.close(), timeout.toNanos(), TimeUnit.NANOSECONDS);
        ctx.read();
        ctx.fireChannelActive();
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        release();
        ctx.fireChannelInactive();
    }

    @Override
    public void handlerRemoved(ChannelHandlerContext ctx) {
        release();
    }

    /** Takes ownership of {@code msg}: copies what the request line needs, releases it. */
    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        try {
            if (answered || !(msg instanceof ByteBuf bytes)) {
                return;
            }
            int end = bytes.indexOf(bytes.readerIndex(), bytes.writerIndex(), (byte) '\n');
            int take = Math.min(end < 0 ? bytes.readableBytes() : end - bytes.readerIndex(), MAX_LINE - line.length());
            line.append(bytes.toString(bytes.readerIndex(), take, StandardCharsets.ISO_8859_1));
            if (end >= 0 || line.length() >= MAX_LINE) {
                answered = true;
                answer(ctx, line.toString());
            }
        } finally {
            ReferenceCountUtil.release(msg);
        }
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) {
        if (!answered) {
            ctx.read();
        }
        ctx.fireChannelReadComplete();
    }

    private void answer(ChannelHandlerContext ctx, String requestLine) {
        FullHttpResponse response = response(ctx, requestLine).toHttp(HttpVersion.HTTP_1_1);
        response.headers().set(HttpHeaderNames.CONNECTION, HttpHeaderValues.CLOSE);
        ctx.writeAndFlush(response).addListener(ChannelFutureListener.CLOSE);
    }

    private ApiResponse response(ChannelHandlerContext ctx, String requestLine) {
        String[] parts = requestLine.trim().split(" ");
        if (parts.length == 3 && parts[0].equals("GET")) {
            try {
                RequestPath path = RequestPath.parse(new QueryStringDecoder(parts[1]).rawPath());
                if (routes.find(HttpMethod.GET, path) instanceof RouteMatch.Found found
                        && found.route().probe()) {
                    return found.route()
                            .handler()
                            .handle(new ApiRequest(
                                    HttpMethod.GET,
                                    path,
                                    found.params(),
                                    EmptyHttpHeaders.INSTANCE,
                                    new byte[0],
                                    new Requester(String.valueOf(ctx.channel().remoteAddress()), Caller.NONE)));
                }
            } catch (ApiException | java.io.IOException e) {
                // Not a probe: refused as anything else is.
            }
        }
        return ApiResponse.error(
                        HttpResponseStatus.SERVICE_UNAVAILABLE,
                        "Sluice's admin API has its most connections open (" + maxConnections
                                + ", --admin-max-connections); on more it answers only /healthz and /readyz")
                .withHeader(HttpHeaderNames.RETRY_AFTER.toString(), "1");
    }

    private void release() {
        if (deadline != null) {
            deadline.cancel(false);
            deadline = null;
        }
    }
}
