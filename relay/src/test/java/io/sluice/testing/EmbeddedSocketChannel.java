package io.sluice.testing;

import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelPromise;
import io.netty.channel.DefaultChannelId;
import io.netty.channel.EventLoop;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.channel.socket.DefaultSocketChannelConfig;
import io.netty.channel.socket.ServerSocketChannel;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.SocketChannelConfig;

import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketAddress;
import java.util.ArrayList;
import java.util.List;

/**
 * An {@link EmbeddedChannel} that passes for a {@link SocketChannel}, so that production
 * initializers typed on socket channels (and a {@code Bootstrap} given this class as its channel
 * type) run in memory, on the calling thread. Connecting always succeeds at once; socket options
 * are accepted and ignored.
 *
 * <p>Channels a {@code Bootstrap} creates are remembered per thread, so a test can reach the
 * upstream side of the handler it drives: see {@link #takeBootstrapped()}.
 */
public class EmbeddedSocketChannel extends EmbeddedChannel implements SocketChannel {

    private static final InetSocketAddress LOCAL = new InetSocketAddress("127.0.0.1", 6650);
    private static final InetSocketAddress REMOTE = new InetSocketAddress("127.0.0.1", 40000);

    private static final ThreadLocal<List<EmbeddedSocketChannel>> BOOTSTRAPPED =
            ThreadLocal.withInitial(ArrayList::new);

    private final SocketChannelConfig config;
    private ManualEventLoop manual;

    /** Unregistered: for a {@code Bootstrap}, or to register on a {@link ManualEventLoop}. */
    public EmbeddedSocketChannel() {
        super(DefaultChannelId.newInstance(), false, false);
        config = new DefaultSocketChannelConfig(this, new OptionlessSocket());
        BOOTSTRAPPED.get().add(this);
    }

    /** The channels this thread's bootstraps created since the last call, in order. */
    public static List<EmbeddedSocketChannel> takeBootstrapped() {
        List<EmbeddedSocketChannel> created = List.copyOf(BOOTSTRAPPED.get());
        BOOTSTRAPPED.get().clear();
        return created;
    }

    /** Registered on its own embedded event loop, with {@code handlers} in its pipeline. */
    public EmbeddedSocketChannel(ChannelHandler... handlers) throws Exception {
        super(DefaultChannelId.newInstance(), false, false, handlers);
        config = new DefaultSocketChannelConfig(this, new OptionlessSocket());
        register();
    }

    /**
     * Registers on its own embedded loop but hands {@code manual} to everyone who asks for its
     * event loop, so the handlers' tasks, timers and bootstraps all run on {@code manual}.
     */
    void runOn(ManualEventLoop manual) throws Exception {
        this.manual = manual;
        register();
    }

    @Override
    public EventLoop eventLoop() {
        return manual != null ? manual : super.eventLoop();
    }

    @Override
    public SocketChannelConfig config() {
        return config;
    }

    @Override
    public ServerSocketChannel parent() {
        return null;
    }

    @Override
    public InetSocketAddress localAddress() {
        return LOCAL;
    }

    @Override
    public InetSocketAddress remoteAddress() {
        return REMOTE;
    }

    @Override
    protected SocketAddress localAddress0() {
        return LOCAL;
    }

    @Override
    protected SocketAddress remoteAddress0() {
        return REMOTE;
    }

    @Override
    public boolean isInputShutdown() {
        return !isOpen();
    }

    @Override
    public ChannelFuture shutdownInput() {
        return close();
    }

    @Override
    public ChannelFuture shutdownInput(ChannelPromise promise) {
        return close(promise);
    }

    @Override
    public boolean isOutputShutdown() {
        return !isOpen();
    }

    @Override
    public ChannelFuture shutdownOutput() {
        return close();
    }

    @Override
    public ChannelFuture shutdownOutput(ChannelPromise promise) {
        return close(promise);
    }

    @Override
    public boolean isShutdown() {
        return !isOpen();
    }

    @Override
    public ChannelFuture shutdown() {
        return close();
    }

    @Override
    public ChannelFuture shutdown(ChannelPromise promise) {
        return close(promise);
    }

    /** A never-connected socket whose options are no-ops, so no file descriptor is ever opened. */
    private static final class OptionlessSocket extends Socket {
        @Override
        public void setTcpNoDelay(boolean on) {}

        @Override
        public void setKeepAlive(boolean on) {}

        @Override
        public void setSoLinger(boolean on, int linger) {}

        @Override
        public void setReceiveBufferSize(int size) {}

        @Override
        public void setSendBufferSize(int size) {}
    }
}
