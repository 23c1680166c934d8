package io.sluice.admin;

import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelPipeline;
import io.netty.channel.group.ChannelGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.handler.codec.http.HttpServerKeepAliveHandler;
import io.sluice.admin.http.BearerTokenCheck;
import io.sluice.admin.http.BodySizeLimit;
import io.sluice.admin.http.MalformedRequestReply;
import io.sluice.admin.http.NextRequestTimeout;
import io.sluice.admin.http.Router;
import io.sluice.relay.tls.ReloadingSslContext;
import io.sluice.relay.tls.TlsHandshakeWatch;

import java.time.Duration;

/**
 * The pipeline of one admin connection:
 * <pre>
 * [SslHandler -> TlsHandshakeWatch, with --tls-cert] -> HttpServerCodec -> HttpServerKeepAliveHandler
 *   -> BodySizeLimit (413) -> NextRequestTimeout -> MalformedRequestReply (400)
 *   -> BearerTokenCheck (401, when a token is set) -> Router
 * </pre>
 * The request timeout starts when the connection is accepted, so it bounds the TLS handshake too.
 * Every handler runs on the connection's event loop (the router hands the route handlers to
 * their own threads). Every connection joins {@code connections}, so the server can close them
 * before stopping its threads.
 */
final class AdminChannelInitializer extends ChannelInitializer<SocketChannel> {

    private final ChannelGroup connections;
    private final int maxBodyBytes;
    private final Duration idleTimeout;
    private final MalformedRequestReply malformed = new MalformedRequestReply();
    private final BearerTokenCheck tokenCheck;
    private final Router router;
    private final ReloadingSslContext tls;
    private final TlsHandshakeWatch tlsHandshake = new TlsHandshakeWatch("admin", () -> {});

    /**
     * @param idleTimeout how long a connection may take to deliver a complete request after opening
     *                    or after its previous answer
     * @param tokenCheck  the token check, or {@code null} when the API is open
     * @param tls         HTTPS, or {@code null} for plain HTTP
     */
    AdminChannelInitializer(
            ChannelGroup connections,
            int maxBodyBytes,
            Duration idleTimeout,
            BearerTokenCheck tokenCheck,
            Router router,
            ReloadingSslContext tls) {
        this.connections = connections;
        this.maxBodyBytes = maxBodyBytes;
        this.idleTimeout = idleTimeout;
        this.tokenCheck = tokenCheck;
        this.router = router;
        this.tls = tls;
    }

    @Override
    protected void initChannel(SocketChannel channel) {
        connections.add(channel);
        ChannelPipeline pipeline = channel.pipeline();
        if (tls != null) {
            pipeline.addLast("tls", tls.newServerHandler(channel.alloc()));
            pipeline.addLast("tls-handshake", tlsHandshake);
        }
        pipeline.addLast("http", new HttpServerCodec());
        pipeline.addLast("keep-alive", new HttpServerKeepAliveHandler());
        pipeline.addLast("body-limit", new BodySizeLimit(maxBodyBytes));
        pipeline.addLast("idle-timeout", new NextRequestTimeout(idleTimeout));
        pipeline.addLast("malformed", malformed);
        if (tokenCheck != null) {
            pipeline.addLast("token", tokenCheck);
        }
        pipeline.addLast("router", router);
    }
}
