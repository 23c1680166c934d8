package io.sluice.admin;

import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelPipeline;
import io.netty.channel.group.ChannelGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.handler.codec.http.HttpResponseEncoder;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.handler.codec.http.HttpServerKeepAliveHandler;
import io.netty.handler.flow.FlowControlHandler;
import io.sluice.admin.http.AdminToken;
import io.sluice.admin.http.BearerTokenCheck;
import io.sluice.admin.http.BodySizeLimit;
import io.sluice.admin.http.CrowdedClose;
import io.sluice.admin.http.MalformedRequestReply;
import io.sluice.admin.http.PastCapReply;
import io.sluice.admin.http.RequestTurns;
import io.sluice.admin.http.RouteTable;
import io.sluice.admin.http.Router;
import io.sluice.relay.RepeatedWarning;
import io.sluice.relay.tls.ReloadingSslContext;
import io.sluice.relay.tls.TlsHandshakeWatch;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;

/**
 * The pipeline of one admin connection:
 * <pre>
 * [SslHandler -> TlsHandshakeWatch, with --tls-cert] -> HttpServerCodec -> FlowControlHandler
 *   -> RequestTurns (one request at a time, each within the timeout) -> HttpServerKeepAliveHandler
 *   -> [CrowdedClose -> BearerTokenCheck (401, 403) on the request's head, when a token is set]
 *   -> BodySizeLimit (413) -> MalformedRequestReply (400) -> Router
 * </pre>
 * or, for a connection past the cap, {@code [SslHandler -> TlsHandshakeWatch] -> HttpResponseEncoder
 * -> PastCapReply} (one probe, then closed; {@link AdminSlots} keeps four times the cap of those,
 * closing the oldest for a new one).
 * A connection accepted while more than half the cap is open has 2 s, not the idle timeout, for
 * each request, so connections that send nothing cannot hold the API's for long.
 * The channel does not read on its own: {@link RequestTurns} asks for each message, so a client
 * that pipelines requests without reading the answers is not read further, and the token is
 * checked before any of a body is read or buffered. The request timeout starts when the
 * connection is accepted, so it bounds the TLS handshake too. Every handler runs on the
 * connection's event loop (the router hands the route handlers to their own threads). Every
 * connection joins {@code connections}, so the server can close them before stopping its threads.
 */
final class AdminChannelInitializer extends ChannelInitializer<SocketChannel> {

    /** How long a connection past the cap has for its one probe: a kubelet sends it at once. */
    static final Duration PAST_CAP_TIMEOUT = Duration.ofSeconds(2);

    private static final Logger log = LoggerFactory.getLogger(AdminChannelInitializer.class);
    private static final RepeatedWarning PAST_CAP = new RepeatedWarning();

    private final ChannelGroup connections;
    private final int maxBodyBytes;
    private final Duration idleTimeout;
    private final int maxConnections;
    private final AdminSlots slots;
    private final CrowdedClose crowdedClose;
    private final MalformedRequestReply malformed = new MalformedRequestReply();
    private final AdminToken token;
    private final AdminToken readToken;
    private final RouteTable routes;
    private final Router router;
    private final ReloadingSslContext tls;
    private final TlsHandshakeWatch tlsHandshake = new TlsHandshakeWatch("admin", () -> {});

    /**
     * @param idleTimeout    how long a connection may take to deliver a complete request after
     *                       opening or after its previous answer
     * @param maxConnections connections that may use the whole API at once; past them a
     *                       connection may ask one probe
     * @param token          the admin token, or {@code null} when the API is open
     * @param readToken      the read-only token, or {@code null} for none
     * @param tls            HTTPS, or {@code null} for plain HTTP
     */
    AdminChannelInitializer(
            ChannelGroup connections,
            int maxBodyBytes,
            Duration idleTimeout,
            int maxConnections,
            AdminToken token,
            AdminToken readToken,
            RouteTable routes,
            Router router,
            ReloadingSslContext tls) {
        this.connections = connections;
        this.maxBodyBytes = maxBodyBytes;
        this.idleTimeout = idleTimeout;
        this.maxConnections = maxConnections;
        this.token = token;
        this.readToken = readToken;
        this.routes = routes;
        this.router = router;
        this.tls = tls;
        this.slots = new AdminSlots(maxConnections);
        this.crowdedClose = new CrowdedClose(slots::crowded);
    }

    @Override
    protected void initChannel(SocketChannel channel) {
        connections.add(channel);
        // Taken when connections already run short, a connection gets the probe's time for each request.
        boolean crowded = slots.crowded();
        boolean pastCap = !slots.admit(channel);
        if (pastCap) {
            long leftOut = PAST_CAP.admit();
            if (leftOut >= 0) {
                log.warn(
                        "Admin API: more than {} connections open (--admin-max-connections); answering only"
                                + " probes on the others, e.g. {}{}",
                        maxConnections,
                        channel.remoteAddress(),
                        RepeatedWarning.leftOut(leftOut));
            }
        }
        ChannelPipeline pipeline = channel.pipeline();
        if (tls != null) {
            pipeline.addLast("tls", tls.newServerHandler(channel.alloc()));
            pipeline.addLast("tls-handshake", tlsHandshake);
        }
        if (pastCap) {
            pipeline.addLast("http", new HttpResponseEncoder());
            pipeline.addLast("past-cap", new PastCapReply(routes, maxConnections, min(idleTimeout, PAST_CAP_TIMEOUT)));
            return;
        }
        pipeline.addLast("http", new HttpServerCodec());
        pipeline.addLast("flow", new FlowControlHandler());
        pipeline.addLast("turns", new RequestTurns(crowded ? min(idleTimeout, PAST_CAP_TIMEOUT) : idleTimeout));
        pipeline.addLast("keep-alive", new HttpServerKeepAliveHandler());
        if (token != null) {
            pipeline.addLast("crowded", crowdedClose);
            pipeline.addLast("token", new BearerTokenCheck(token, readToken));
        }
        pipeline.addLast("body-limit", new BodySizeLimit(maxBodyBytes));
        pipeline.addLast("malformed", malformed);
        pipeline.addLast("router", router);
    }

    private static Duration min(Duration a, Duration b) {
        return a.compareTo(b) <= 0 ? a : b;
    }
}
