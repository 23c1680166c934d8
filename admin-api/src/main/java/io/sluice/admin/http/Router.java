package io.sluice.admin.http;

import io.netty.buffer.ByteBufUtil;
import io.netty.channel.ChannelHandler.Sharable;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.QueryStringDecoder;
import io.sluice.limits.LimitsUnavailableException;
import io.sluice.relay.ClientText;
import io.sluice.settings.InvalidSettingsException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.stream.Collectors;

/**
 * Sends each request to its route and writes the answer: 404 for an unknown path, 405 with
 * {@code Allow} for a known path with another method, 415 for a {@code PUT} body that is not
 * JSON, 400 for what the handler finds invalid, 503 for a limits change while the cluster store
 * that holds the limits is unreachable, 500 when it fails.
 *
 * <p>Handlers may block (a limits change waits for an fsync), so they run on {@code handlers},
 * never on the event loop; that executor's queue is bounded, and a request it refuses is answered
 * 503 at once rather than waited for. Probes ({@link Route#probe()}) are answered on the loop
 * itself, so no amount of queued API work delays them. The request's buffer is released here on
 * the loop; handlers get a copy of the body. A connection sends its next request only once this
 * one is answered ({@link RequestTurns}), so answers go out in order.
 */
@Sharable
public final class Router extends SimpleChannelInboundHandler<FullHttpRequest> {

    private static final Logger log = LoggerFactory.getLogger(Router.class);

    private final RouteTable routes;
    private final Executor handlers;

    /** @param handlers runs the handlers of routes that are not probes; may refuse work when busy */
    public Router(RouteTable routes, Executor handlers) {
        super(FullHttpRequest.class);
        this.routes = routes;
        this.handlers = handlers;
    }

    @Override
    protected void channelRead0(ChannelHandlerContext ctx, FullHttpRequest request) {
        Caller caller = ctx.channel().attr(Caller.OF_REQUEST).getAndSet(null);
        Call call = new Call(
                request.method(),
                request.uri(),
                request.headers().copy(),
                ByteBufUtil.getBytes(request.content()),
                new Requester(String.valueOf(ctx.channel().remoteAddress()), caller == null ? Caller.NONE : caller));
        HttpVersion version = request.protocolVersion();
        RequestPath path;
        try {
            path = RequestPath.parse(new QueryStringDecoder(call.uri()).rawPath());
        } catch (ApiException e) {
            ctx.writeAndFlush(e.response().toHttp(version));
            return;
        }
        if (HttpMethod.GET.equals(call.method()) && routes.isProbe(path)) {
            ctx.writeAndFlush(respond(call, path).toHttp(version));
            return;
        }
        try {
            handlers.execute(() -> answer(ctx, call, path, version));
        } catch (RejectedExecutionException e) {
            ctx.writeAndFlush(ApiResponse.error(
                            HttpResponseStatus.SERVICE_UNAVAILABLE,
                            "Sluice's admin API is busy: its queue of requests is full; try again shortly")
                    .withHeader(HttpHeaderNames.RETRY_AFTER.toString(), "1")
                    .toHttp(version));
        }
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        log.debug("Admin connection {} failed", ctx.channel().remoteAddress(), cause);
        ctx.close();
    }

    /** On a handler thread. */
    private void answer(ChannelHandlerContext ctx, Call call, RequestPath path, HttpVersion version) {
        ApiResponse response;
        try {
            response = respond(call, path);
        } catch (Error e) {
            // The connection waits for this answer before sending its next request: end it.
            ctx.close();
            throw e;
        }
        ctx.writeAndFlush(response.toHttp(version));
    }

    private ApiResponse respond(Call call, RequestPath path) {
        try {
            RouteMatch match = routes.find(call.method(), path);
            if (match instanceof RouteMatch.WrongMethod wrong) {
                String allowed = wrong.allowed().stream().map(HttpMethod::name).collect(Collectors.joining(", "));
                return ApiResponse.error(
                                HttpResponseStatus.METHOD_NOT_ALLOWED,
                                "method " + call.method() + " is not allowed on " + path + "; allowed: " + allowed)
                        .withHeader(HttpHeaderNames.ALLOW.toString(), allowed);
            }
            if (!(match instanceof RouteMatch.Found found)) {
                return ApiResponse.error(HttpResponseStatus.NOT_FOUND, "no such path: " + path);
            }
            String contentType = call.headers().get(HttpHeaderNames.CONTENT_TYPE);
            if (HttpMethod.PUT.equals(call.method()) && !JsonMediaType.accepts(contentType)) {
                return ApiResponse.error(
                        HttpResponseStatus.UNSUPPORTED_MEDIA_TYPE,
                        "Content-Type: must be application/json, got " + contentType);
            }
            return found.route()
                    .handler()
                    .handle(new ApiRequest(
                            call.method(), path, found.params(), call.headers(), call.body(), call.requester()));
        } catch (ApiException e) {
            return e.response();
        } catch (InvalidSettingsException e) {
            return ApiResponse.error(HttpResponseStatus.BAD_REQUEST, e.getMessage());
        } catch (LimitsUnavailableException e) {
            return ApiResponse.error(HttpResponseStatus.SERVICE_UNAVAILABLE, e.getMessage());
        } catch (IOException e) {
            log.warn("Admin request {} {} failed", call.method(), ClientText.of(call.uri()), e);
            return ApiResponse.error(HttpResponseStatus.INTERNAL_SERVER_ERROR, "could not complete the request: " + e);
        } catch (RuntimeException e) {
            log.error("Admin request {} {} failed", call.method(), ClientText.of(call.uri()), e);
            return ApiResponse.error(HttpResponseStatus.INTERNAL_SERVER_ERROR, "internal error; see the proxy's log");
        }
    }

    /** What a handler needs of a request, copied off Netty's buffers. */
    private record Call(HttpMethod method, String uri, HttpHeaders headers, byte[] body, Requester requester) {}
}
