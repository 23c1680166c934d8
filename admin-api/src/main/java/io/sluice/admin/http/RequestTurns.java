package io.sluice.admin.http;

import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPromise;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpStatusClass;
import io.netty.handler.codec.http.LastHttpContent;
import io.sluice.relay.DeadlineHandler;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;

/**
 * Takes an admin connection's requests one at a time: the next request is read only once the
 * answer to the previous one has gone out to the socket. A client that pipelines faster than it
 * reads its answers is simply not read any more; nothing is queued for it, in Sluice or in its
 * handlers. Needs the channel's auto-read off and Netty's {@code FlowControlHandler} right behind
 * the HTTP codec, which hands on one decoded message per read; a request's body is read on, part
 * after part, while the request comes in.
 *
 * <p>Also the deadline of the client's turn: a connection that has not delivered a complete
 * request within the timeout of opening, or of the answer to its previous request being handed
 * to the socket, is closed. The bound is on the whole request, not on the gaps between its bytes,
 * so a slowloris that dribbles a byte every few seconds is cut off as surely as a keep-alive
 * connection left idle (Netty's idle and read timeouts reset on every byte), and a client that
 * does not read its answers is closed as surely as one that sends nothing. The clock stops while
 * the answer is being made (a limits change waits for an fsync).
 *
 * <p>Sits behind the HTTP codec, so it sees every request coming in and every answer going out,
 * whichever handler behind it gave it. Confined to the channel's event loop.
 */
public final class RequestTurns extends DeadlineHandler {

    private static final Logger log = LoggerFactory.getLogger(RequestTurns.class);

    /**
     * Runs {@link #readIfDue} from a task of its own: a read asked for while a message is being
     * handed on would nest in {@code FlowControlHandler}'s delivery, which then forgets it.
     */
    private final Runnable readLater;

    private ChannelHandlerContext ctx;
    /** A request's head came and its last part has not. */
    private boolean receiving;
    /** A request came whose answer has not been handed to the socket. */
    private boolean owed;
    /** A read was asked for and no message came of it yet. */
    private boolean reading;
    /** {@link #readLater} is queued and has not run yet. */
    private boolean readQueued;
    /** The answer going out is informational (100 Continue), not the answer owed. */
    private boolean informational;

    /** @param timeout how long the client has for each request */
    public RequestTurns(Duration timeout) {
        super(timeout);
        this.readLater = () -> {
            readQueued = false;
            readIfDue(this.ctx);
        };
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        this.ctx = ctx;
        super.handlerAdded(ctx);
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) {
        super.channelActive(ctx);
        readIfDue(ctx);
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        reading = false;
        if (msg instanceof HttpRequest) {
            receiving = true;
            owed = true;
        }
        if (msg instanceof LastHttpContent) {
            receiving = false;
            // The server's turn while the answer is made; a request answered on its head is
            // done, and the client's turn for the next one starts now.
            stop();
            if (!owed) {
                start(ctx);
            }
        }
        ctx.fireChannelRead(msg);
        readSoon(ctx);
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) {
        if (reading) {
            // A read ends with its read cycle, message or not (a TLS handshake's records, part of a
            // request's head): ask again for the message still due.
            reading = false;
            readSoon(ctx);
        }
        ctx.fireChannelReadComplete();
    }

    @Override
    public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
        if (msg instanceof HttpResponse response) {
            informational = response.status().codeClass() == HttpStatusClass.INFORMATIONAL;
        }
        if (!(msg instanceof LastHttpContent) || informational || !owed) {
            ctx.write(msg, promise);
            return;
        }
        owed = false;
        if (receiving) {
            // Answered on its head (401, 413): the rest of the request is still read, and discarded.
            ctx.write(msg, promise);
            return;
        }
        // The client's turn again; its next request is read once this answer is in the socket.
        start(ctx);
        ChannelPromise written = promise.unvoid();
        ctx.write(msg, written);
        written.addListener((ChannelFuture done) -> {
            if (done.isSuccess()) {
                readSoon(ctx);
            }
        });
    }

    private void readSoon(ChannelHandlerContext ctx) {
        if (!readQueued) {
            readQueued = true;
            ctx.executor().execute(readLater);
        }
    }

    private void readIfDue(ChannelHandlerContext ctx) {
        if (reading || (owed && !receiving) || !ctx.channel().isActive()) {
            return;
        }
        reading = true;
        ctx.read();
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
