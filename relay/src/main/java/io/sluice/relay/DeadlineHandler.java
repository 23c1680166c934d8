package io.sluice.relay;

import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.util.concurrent.ScheduledFuture;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * A handler with one deadline for its channel, kept on the channel's event loop: it starts when the
 * channel is active, a subclass stops and restarts it as the protocol moves on, and it is cancelled
 * when the handler leaves the pipeline (which a closing channel makes it do). When the deadline
 * passes, {@link #expired} decides what happens, usually a close.
 */
public abstract class DeadlineHandler extends ChannelDuplexHandler {

    private final Duration timeout;
    private ScheduledFuture<?> timer;

    protected DeadlineHandler(Duration timeout) {
        this.timeout = timeout;
    }

    /** How long the channel has, each time the deadline starts. */
    protected final Duration timeout() {
        return timeout;
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        if (ctx.channel().isActive()) {
            start(ctx);
        }
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) {
        start(ctx);
        ctx.fireChannelActive();
    }

    @Override
    public void handlerRemoved(ChannelHandlerContext ctx) {
        stop();
    }

    /** Starts the deadline from now, unless it is already running. */
    protected final void start(ChannelHandlerContext ctx) {
        if (timer == null) {
            timer = ctx.executor()
                    .schedule(
                            () -> {
                                timer = null;
                                expired(ctx);
                            },
                            timeout.toNanos(),
                            TimeUnit.NANOSECONDS);
        }
    }

    /** Cancels the deadline if it runs. */
    protected final void stop() {
        if (timer != null) {
            timer.cancel(false);
            timer = null;
        }
    }

    /** The deadline passed without a {@link #stop}. */
    protected abstract void expired(ChannelHandlerContext ctx);
}
