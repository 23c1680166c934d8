package io.sluice.kafka.connection;

import io.netty.channel.ChannelHandlerContext;
import io.sluice.relay.DeadlineHandler;
import io.sluice.relay.ProxyStats;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;

/**
 * Closes a client connection that has not had its first answer from the broker in time: from
 * accept to the first response reaching the client, which takes in the client's first request
 * (ApiVersions, for every current client), the upstream connection and the broker's answer.
 * Without it a peer that connects and sends nothing, or half a request, would hold its socket and
 * buffers until the broker's idle timeout, and the broker never sees a connection that sent nothing.
 *
 * <p>{@link KafkaConnection} fires {@link #COMPLETED} when the first response passes; the timer is
 * then cancelled and this handler leaves the pipeline. From then on the broker's own
 * {@code connections.max.idle.ms} closes an idle upstream connection, and its client connection with it.
 */
final class HandshakeTimeout extends DeadlineHandler {

    /** The user event that ends the handshake. */
    static final Object COMPLETED = new Object();

    /** The {@code sluice_protocol_errors_total} reason of a connection closed by this handler. */
    static final String REASON = "handshake_timeout";

    private static final Logger log = LoggerFactory.getLogger(HandshakeTimeout.class);

    private final ProxyStats stats;
    private boolean requestReceived;

    HandshakeTimeout(Duration timeout, ProxyStats stats) {
        super(timeout);
        this.stats = stats;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        requestReceived = true;
        ctx.fireChannelRead(msg);
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object event) {
        if (event == COMPLETED) {
            ctx.pipeline().remove(this);
        } else {
            ctx.fireUserEventTriggered(event);
        }
    }

    @Override
    protected void expired(ChannelHandlerContext ctx) {
        stats.protocolError(REASON);
        log.warn(
                "Closing Kafka connection from {}: no answer from the broker within {} ms, {} ({})",
                ctx.channel().remoteAddress(),
                timeout().toMillis(),
                requestReceived ? "the broker has not answered" : "no complete request from the client",
                REASON);
        ctx.close();
    }
}
