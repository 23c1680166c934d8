package io.sluice.admin.http;

import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.QueryStringDecoder;

import java.util.List;
import java.util.Locale;

/**
 * Answers a request under {@code /api/v1} on its head, before any of its body is read: 401 without
 * {@code Authorization: Bearer TOKEN} naming a token in force ({@link AdminToken}), 403 for the
 * read-only token on anything but {@code GET}. Lets everything else through, and tells the router
 * who asked ({@link Caller}). The path is judged after percent-decoding, exactly as the router reads
 * it, so {@code /%61pi/v1/...} is protected too. Tokens are compared as SHA-256 digests in constant
 * time, so neither their content nor their length leaks through timing. One instance per connection.
 */
public final class BearerTokenCheck extends RequestScreen {

    private static final List<String> PROTECTED = List.of("api", "v1");
    private static final String SCHEME = "bearer ";

    private final AdminToken token;
    private final AdminToken readToken;

    /**
     * @param token     the token that may do everything
     * @param readToken the token that may only read, or null for none
     */
    public BearerTokenCheck(AdminToken token, AdminToken readToken) {
        this.token = token;
        this.readToken = readToken;
    }

    @Override
    protected ApiResponse refusal(ChannelHandlerContext ctx, HttpRequest request) {
        if (!isProtected(request)) {
            ctx.channel().attr(Caller.OF_REQUEST).set(Caller.NONE);
            ctx.channel().attr(Caller.OF_ANSWER).set(Caller.NONE);
            return null;
        }
        Caller caller = presented(request);
        ctx.channel().attr(Caller.OF_REQUEST).set(caller);
        ctx.channel().attr(Caller.OF_ANSWER).set(caller);
        if (caller == Caller.ADMIN || caller == Caller.READ && HttpMethod.GET.equals(request.method())) {
            return null;
        }
        if (caller == Caller.READ) {
            return ApiResponse.error(
                    HttpResponseStatus.FORBIDDEN,
                    "Authorization: the read-only token may not " + request.method() + "; this needs the admin token");
        }
        String problem = request.headers().contains(HttpHeaderNames.AUTHORIZATION)
                ? "Authorization: wrong bearer token"
                : "Authorization: missing; send Authorization: Bearer TOKEN";
        return ApiResponse.error(HttpResponseStatus.UNAUTHORIZED, problem)
                .withHeader(HttpHeaderNames.WWW_AUTHENTICATE.toString(), "Bearer realm=\"sluice\"");
    }

    private static boolean isProtected(HttpRequest request) {
        try {
            return RequestPath.parse(new QueryStringDecoder(request.uri()).rawPath())
                    .startsWith(PROTECTED);
        } catch (ApiException unreadablePath) {
            // The router answers 400 without running any handler.
            return false;
        }
    }

    /** The token the request presents: {@link Caller#NONE} for none in force. */
    private Caller presented(HttpRequest request) {
        String header = request.headers().get(HttpHeaderNames.AUTHORIZATION);
        if (header == null
                || header.length() < SCHEME.length()
                || !header.substring(0, SCHEME.length())
                        .toLowerCase(Locale.ROOT)
                        .equals(SCHEME)) {
            return Caller.NONE;
        }
        String presented = header.substring(SCHEME.length()).trim();
        if (token.matches(presented)) {
            return Caller.ADMIN;
        }
        return readToken != null && readToken.matches(presented) ? Caller.READ : Caller.NONE;
    }
}
