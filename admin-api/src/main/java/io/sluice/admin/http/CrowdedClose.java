package io.sluice.admin.http;

import io.netty.channel.ChannelHandler.Sharable;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelOutboundHandlerAdapter;
import io.netty.channel.ChannelPromise;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpUtil;

import java.util.function.BooleanSupplier;

/**
 * Keeps a connection that presented no token from holding one of the admin port's connections
 * while they run short: when {@code crowded} says so, the answer to a request without a token in
 * force (a probe, {@code /metrics}, a refusal) says {@code Connection: close}, and the keep-alive
 * handler closes the connection once it is written. So a client without a token cannot keep every
 * connection busy with keep-alive {@code /healthz} and lock the token's holders out. Sits between
 * the keep-alive handler and the token check; shared by the connections of a server.
 */
@Sharable
public final class CrowdedClose extends ChannelOutboundHandlerAdapter {

    private final BooleanSupplier crowded;

    /** @param crowded whether connections run short now; asked on the admin event loop */
    public CrowdedClose(BooleanSupplier crowded) {
        this.crowded = crowded;
    }

    /** Passes {@code msg} on, marked to close after it when it answers a request without a token and connections run short. */
    @Override
    public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
        if (msg instanceof HttpResponse response) {
            Caller caller = ctx.channel().attr(Caller.OF_ANSWER).getAndSet(null);
            if (caller != Caller.ADMIN && caller != Caller.READ && crowded.getAsBoolean()) {
                HttpUtil.setKeepAlive(response, false);
            }
        }
        ctx.write(msg, promise);
    }
}
