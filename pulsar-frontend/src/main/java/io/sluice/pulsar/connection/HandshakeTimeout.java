package io.sluice.pulsar.connection;

import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.ssl.SslHandler;
import io.netty.handler.ssl.SslHandshakeCompletionEvent;
import io.sluice.relay.DeadlineHandler;
import io.sluice.relay.ProxyStats;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;

/**
 * Closes a client connection whose Pulsar handshake does not complete in time: from accept to the
 * broker's CONNECTED reaching the client, which takes in the client's CONNECT, the upstream
 * connection and authentication. Without it a peer that connects and sends nothing, or half a
 * frame, holds its socket and buffers for ever: the broker never sees such a connection, so its
 * own handshake check cannot close it.
 *
 * <p>{@link PulsarConnection} fires {@link #COMPLETED} when the broker's CONNECTED passes; the timer
 * is then cancelled and this handler leaves the pipeline. After the handshake no timeout is needed
 * on the Pulsar port: client and broker exchange keep-alive PINGs through Sluice, and the broker
 * closes a peer that stops answering them, which closes its Sluice connection too.
 *
 * <p>Sits after the frame decoder, so it also knows whether the client's CONNECT arrived and can
 * tell a silent client from a slow broker in its log line; on a TLS port it also sees whether the
 * TLS handshake completed.
 */
final class HandshakeTimeout extends DeadlineHandler {

    /** The user event that ends the handshake. */
    static final Object COMPLETED = new Object();

    /** The {@code sluice_protocol_errors_total} reason of a connection closed by this handler. */
    static final String REASON = "handshake_timeout";

    private static final Logger log = LoggerFactory.getLogger(HandshakeTimeout.class);

    private final ProxyStats stats;
    private boolean tlsPending;
    private boolean connectReceived;

    HandshakeTimeout(Duration timeout, ProxyStats stats) {
        super(timeout);
        this.stats = stats;
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        tlsPending = ctx.pipeline().get(SslHandler.class) != null;
        super.handlerAdded(ctx);
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        connectReceived = true;
        ctx.fireChannelRead(msg);
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object event) {
        if (event == COMPLETED) {
            ctx.pipeline().remove(this);
        } else {
            if (event instanceof SslHandshakeCompletionEvent) {
                tlsPending = false;
            }
            ctx.fireUserEventTriggered(event);
        }
    }

    @Override
    protected void expired(ChannelHandlerContext ctx) {
        stats.protocolError(REASON);
        log.warn(
                "Closing connection from {}: no Pulsar handshake within {} ms, {} ({})",
                ctx.channel().remoteAddress(),
                timeout().toMillis(),
                tlsPending
                        ? "the client has not completed the TLS handshake"
                        : connectReceived ? "the broker has not answered CONNECT" : "no CONNECT from the client",
                REASON);
        ctx.close();
    }
}
