package io.sluice.admin.http;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPromise;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.LastHttpContent;
import io.sluice.relay.DeadlineHandler;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;

/**
 * Closes an admin connection that has not delivered a complete request within the timeout of
 * opening or of the answer to its previous request. The bound is on the whole request, not on the
 * gaps between its bytes, so a slowloris that dribbles a byte every few seconds is cut off as surely
 * as a keep-alive connection left idle (Netty's idle and read timeouts reset on every byte). The
 * clock stops while requests are being answered (a limits change waits for an fsync) and starts
 * again when the last answer owed has been handed to the connection; a client that does not read
 * its answers then has the same time as any other to send its next request.
 *
 * <p>Sits behind the aggregator: it counts whole requests coming in and the answers of the
 * handlers behind it going out. A request the aggregator refuses itself (413) never reaches it and
 * so never stops the clock.
 */
public final class NextRequestTimeout extends DeadlineHandler {

    private static final Logger log = LoggerFactory.getLogger(NextRequestTimeout.class);

    private int unanswered;

    public NextRequestTimeout(Duration timeout) {
        super(timeout);
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (msg instanceof FullHttpRequest) {
            unanswered++;
            stop();
        }
        ctx.fireChannelRead(msg);
    }

    @Override
    public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
        if (msg instanceof LastHttpContent && unanswered > 0 && --unanswered == 0) {
            start(ctx);
        }
        ctx.write(msg, promise);
    }

    @Override
    protected void expired(ChannelHandlerContext ctx) {
        log.debug(
                "Closing admin connection {}: no complete request within {} ms",
                ctx.channel().remoteAddress(),
                timeout().toMillis());
        ctx.close();
    }
}
