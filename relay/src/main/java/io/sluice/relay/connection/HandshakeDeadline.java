package io.sluice.relay.connection;

import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.ssl.SslHandshakeCompletionEvent;
import io.sluice.relay.DeadlineHandler;
import io.sluice.relay.ProxyStats;
import io.sluice.relay.RepeatedWarning;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Closes a client connection whose protocol handshake is not done in time: from accept to the
 * moment the front end says it is ({@link ProxiedConnection#handshakeCompleted}), which takes in
 * the client's TLS handshake, its first request, the upstream connect and the upstream's answer.
 * Without it a peer that connects and sends nothing, or half a frame, holds its socket and buffers
 * for ever: the upstream never sees such a connection, so its own checks cannot close it. After
 * the handshake the protocol's own keep-alives or idle timeouts take over, upstream.
 *
 * <p>Sits after the frame decoder until the handshake is done, then leaves the pipeline: so it
 * knows whether a whole frame came and can tell a silent client from a slow upstream in its log
 * line (in the front end's words, {@link ConnectionSpec.Handshake}); on a TLS port it also sees
 * whether the TLS handshake completed.
 */
public final class HandshakeDeadline extends DeadlineHandler {

    /** The {@code sluice_protocol_errors_total} reason of a connection closed by this handler. */
    public static final String REASON = "handshake_timeout";

    private static final Logger log = LoggerFactory.getLogger(HandshakeDeadline.class);
    private static final RepeatedWarning EXPIRED = new RepeatedWarning();

    private final ConnectionSpec spec;
    private final ProxyStats stats;
    private ChannelHandlerContext ctx;
    private boolean tlsPending;
    private boolean frameReceived;

    /** @param tls whether the client speaks TLS, so that its handshake is pending at first */
    HandshakeDeadline(ConnectionSpec spec, boolean tls) {
        super(spec.handshake().timeout());
        this.spec = spec;
        this.stats = spec.services().stats();
        this.tlsPending = tls;
    }

    /** The handshake is done: the deadline no longer applies and the handler leaves the pipeline. */
    void complete() {
        if (ctx != null && !ctx.isRemoved()) {
            ctx.pipeline().remove(this);
        }
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        this.ctx = ctx;
        super.handlerAdded(ctx);
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        frameReceived = true;
        ctx.fireChannelRead(msg);
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object event) {
        if (event instanceof SslHandshakeCompletionEvent) {
            tlsPending = false;
        }
        ctx.fireUserEventTriggered(event);
    }

    @Override
    protected void expired(ChannelHandlerContext ctx) {
        ConnectionSpec.Handshake handshake = spec.handshake();
        stats.protocolError(REASON);
        long leftOut = EXPIRED.admit();
        if (leftOut >= 0) {
            log.warn(
                    "Closing {} from {}: no {} within {} ms, {} ({}){}",
                    spec.connections(),
                    ctx.channel().remoteAddress(),
                    handshake.awaited(),
                    timeout().toMillis(),
                    tlsPending
                            ? handshake.tlsPending()
                            : frameReceived ? handshake.upstreamAwaited() : handshake.nothingReceived(),
                    REASON,
                    RepeatedWarning.leftOut(leftOut));
        }
        ctx.close();
    }
}
