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
import io.netty.util.AttributeKey;
import io.sluice.limits.LimitsUnavailableException;
import io.sluice.settings.InvalidSettingsException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.stream.Collectors;

/**
 * Sends each request to its route and writes the answer: 404 for an unknown path, 405 with
 * {@code Allow} for a known path with another method, 415 for a {@code PUT} body that is not
 * JSON, 400 for what the handler finds invalid, 503 for a limits change while the cluster store
 * that holds the limits is unreachable, 500 when it fails.
 *
 * <p>Handlers may block (a limits change waits for an fsync), so they run on {@code handlers},
 * never on the event loop. The request's buffer is released here on the loop; handlers get a
 * copy of the body. Requests of one connection are answered one after another, in order, as
 * HTTP/1.1 pipelining requires.
 */
@Sharable
public final class Router extends SimpleChannelInboundHandler<FullHttpRequest> {

    private static final Logger log = LoggerFactory.getLogger(Router.class);

    /** The answer of the connection's latest request, which the next one waits for. */
    private static final AttributeKey<CompletableFuture<Void>> LATEST = AttributeKey.valueOf(Router.class, "latest");

    private final RouteTable routes;
    private final Executor handlers;

    public Router(RouteTable routes, Executor handlers) {
        super(FullHttpRequest.class);
        this.routes = routes;
        this.handlers = handlers;
    }

    @Override
    protected void channelRead0(ChannelHandlerContext ctx, FullHttpRequest request) {
        Call call = new Call(
                request.method(), request.uri(), request.headers().copy(), ByteBufUtil.getBytes(request.content()));
        HttpVersion version = request.protocolVersion();
        CompletableFuture<Void> previous = ctx.channel().attr(LATEST).get();
        CompletableFuture<Void> answered = (previous == null ? CompletableFuture.<Void>completedFuture(null) : previous)
                .thenApplyAsync(ignored -> respond(call), handlers)
                .thenAccept(response -> ctx.writeAndFlush(response.toHttp(version)))
                .exceptionally(failure -> {
                    // Only when the server is closing (handlers refused) or a handler threw an Error;
                    // later requests would wait for an answer that never comes, so end the connection.
                    log.debug("Admin request {} {} got no answer", call.method(), call.uri(), failure);
                    ctx.close();
                    return null;
                });
        ctx.channel().attr(LATEST).set(answered);
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        log.debug("Admin connection {} failed", ctx.channel().remoteAddress(), cause);
        ctx.close();
    }

    private ApiResponse respond(Call call) {
        try {
            RequestPath path = RequestPath.parse(new QueryStringDecoder(call.uri()).rawPath());
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
                    .handle(new ApiRequest(call.method(), found.params(), call.headers(), call.body()));
        } catch (ApiException e) {
            return e.response();
        } catch (InvalidSettingsException e) {
            return ApiResponse.error(HttpResponseStatus.BAD_REQUEST, e.getMessage());
        } catch (LimitsUnavailableException e) {
            return ApiResponse.error(HttpResponseStatus.SERVICE_UNAVAILABLE, e.getMessage());
        } catch (IOException e) {
            log.warn("Admin request {} {} failed", call.method(), call.uri(), e);
            return ApiResponse.error(HttpResponseStatus.INTERNAL_SERVER_ERROR, "could not complete the request: " + e);
        } catch (RuntimeException e) {
            log.error("Admin request {} {} failed", call.method(), call.uri(), e);
            return ApiResponse.error(HttpResponseStatus.INTERNAL_SERVER_ERROR, "internal error; see the proxy's log");
        }
    }

    /** What a handler needs of a request, copied off Netty's buffers. */
    private record Call(HttpMethod method, String uri, HttpHeaders headers, byte[] body) {}
}
