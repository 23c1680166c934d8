package io.sluice.admin.http;

import io.netty.channel.ChannelHandler.Sharable;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.QueryStringDecoder;
import io.netty.util.ReferenceCountUtil;

import java.util.List;
import java.util.Locale;

/**
 * Answers 401 to a request under {@code /api/v1} that lacks {@code Authorization: Bearer TOKEN}
 * with the token in force ({@link AdminToken}); lets everything else through. The path is judged
 * after percent-decoding, exactly as the router reads it, so {@code /%61pi/v1/...} is protected
 * too. Tokens are compared as SHA-256 digests in constant time, so neither their content nor their
 * length leaks through timing.
 */
@Sharable
public final class BearerTokenCheck extends ChannelInboundHandlerAdapter {

    private static final List<String> PROTECTED = List.of("api", "v1");
    private static final String SCHEME = "bearer ";

    private final AdminToken token;

    /** @param token the token clients must present */
    public BearerTokenCheck(AdminToken token) {
        this.token = token;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (msg instanceof FullHttpRequest request && isProtected(request) && !presentsToken(request)) {
            ReferenceCountUtil.release(request);
            String problem = request.headers().contains(HttpHeaderNames.AUTHORIZATION)
                    ? "Authorization: wrong bearer token"
                    : "Authorization: missing; send Authorization: Bearer TOKEN";
            ApiResponse response = ApiResponse.error(HttpResponseStatus.UNAUTHORIZED, problem)
                    .withHeader(HttpHeaderNames.WWW_AUTHENTICATE.toString(), "Bearer realm=\"sluice\"");
            ctx.writeAndFlush(response.toHttp(request.protocolVersion()));
            return;
        }
        ctx.fireChannelRead(msg);
    }

    private static boolean isProtected(FullHttpRequest request) {
        try {
            return RequestPath.parse(new QueryStringDecoder(request.uri()).rawPath())
                    .startsWith(PROTECTED);
        } catch (ApiException unreadablePath) {
            // The router answers 400 without running any handler.
            return false;
        }
    }

    private boolean presentsToken(FullHttpRequest request) {
        String header = request.headers().get(HttpHeaderNames.AUTHORIZATION);
        if (header == null
                || header.length() < SCHEME.length()
                || !header.substring(0, SCHEME.length())
                        .toLowerCase(Locale.ROOT)
                        .equals(SCHEME)) {
            return false;
        }
        return token.matches(header.substring(SCHEME.length()).trim());
    }
}
