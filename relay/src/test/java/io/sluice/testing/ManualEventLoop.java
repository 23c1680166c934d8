package io.sluice.testing;

import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelPromise;
import io.netty.channel.DefaultChannelPromise;
import io.netty.channel.EventLoop;
import io.netty.channel.EventLoopGroup;
import io.netty.util.concurrent.AbstractScheduledEventExecutor;
import io.netty.util.concurrent.DefaultPromise;
import io.netty.util.concurrent.Future;
import io.netty.util.concurrent.GlobalEventExecutor;

import java.util.ArrayDeque;
import java.util.Queue;
import java.util.concurrent.TimeUnit;

/**
 * An event loop that runs nothing by itself: tasks wait until the test calls {@link #runTasks()},
 * timers follow a clock the test moves with {@link #advanceTimeBy}. Unlike Netty's embedded loop
 * it never shuts down, so a {@code Bootstrap} (whose address resolver watches its loop's
 * termination) can connect {@link EmbeddedSocketChannel}s on it. One loop serves any number of
 * channels, all on the test's thread; each channel still keeps Netty's embedded loop for its
 * own bookkeeping.
 */
public final class ManualEventLoop extends AbstractScheduledEventExecutor implements EventLoop {

    private final Queue<Runnable> tasks = new ArrayDeque<>();
    private final Future<?> termination = new DefaultPromise<Void>(GlobalEventExecutor.INSTANCE);
    private long nanos = System.nanoTime();

    @SuppressWarnings("deprecation")
    @Override
    protected long getCurrentTimeNanos() {
        return nanos;
    }

    /** This loop's clock, which timers follow: a {@code NanoClock} for code under test. */
    public long clockNanos() {
        return nanos;
    }

    /** Moves this loop's clock; timers that fall due run at the next {@link #runTasks()}. */
    public void advanceTimeBy(long amount, TimeUnit unit) {
        nanos += unit.toNanos(amount);
    }

    /** Runs queued tasks and due timers until none is left. */
    public void runTasks() {
        Runnable task;
        do {
            while ((task = tasks.poll()) != null) {
                task.run();
            }
            while ((task = pollScheduledTask(nanos)) != null) {
                task.run();
            }
        } while (!tasks.isEmpty());
    }

    /** Whether a timer is still waiting to run; a cancelled timer is gone at once. */
    public boolean hasTimers() {
        return nextScheduledTaskDeadlineNanos() != -1;
    }

    @Override
    public void execute(Runnable task) {
        tasks.add(task);
    }

    @Override
    public ChannelFuture register(Channel channel) {
        return register(new DefaultChannelPromise(channel, this));
    }

    /** Takes {@link EmbeddedSocketChannel}s only (see {@link EmbeddedSocketChannel#runOn}). */
    @Override
    public ChannelFuture register(ChannelPromise promise) {
        if (!(promise.channel() instanceof EmbeddedSocketChannel channel)) {
            return promise.setFailure(
                    new IllegalArgumentException("not an EmbeddedSocketChannel: " + promise.channel()));
        }
        try {
            channel.runOn(this);
            return promise.setSuccess();
        } catch (Exception e) {
            return promise.setFailure(e);
        }
    }

    @Deprecated
    @Override
    public ChannelFuture register(Channel channel, ChannelPromise promise) {
        return register(promise);
    }

    @Override
    public EventLoop next() {
        return this;
    }

    @Override
    public EventLoopGroup parent() {
        return this;
    }

    @Override
    public boolean inEventLoop(Thread thread) {
        return true;
    }

    @Override
    public boolean inEventLoop() {
        return true;
    }

    @Override
    public boolean isShuttingDown() {
        return false;
    }

    @Override
    public Future<?> shutdownGracefully(long quietPeriod, long timeout, TimeUnit unit) {
        throw new UnsupportedOperationException("a manual event loop lives as long as its test");
    }

    @Override
    public Future<?> terminationFuture() {
        return termination;
    }

    @Deprecated
    @Override
    public void shutdown() {
        throw new UnsupportedOperationException("a manual event loop lives as long as its test");
    }

    @Override
    public boolean isShutdown() {
        return false;
    }

    @Override
    public boolean isTerminated() {
        return false;
    }

    @Override
    public boolean awaitTermination(long timeout, TimeUnit unit) {
        return false;
    }
}
