package io.sluice.relay.tls;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;

import java.net.InetSocketAddress;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A loopback server whose pipeline is the one a Sluice port has in front: an {@code SslHandler}
 * from a {@link ReloadingSslContext}, a {@link TlsHandshakeWatch}, then an echo of what it
 * decrypts. It counts failed handshakes and records whatever reached the echo besides data.
 */
final class TlsEchoServer implements AutoCloseable {

    final AtomicInteger failedHandshakes = new AtomicInteger();
    /** Exceptions that got past the handshake watch. */
    final List<Throwable> errorsBehind = new CopyOnWriteArrayList<>();

    private final EventLoopGroup group = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
    private final Channel listener;

    TlsEchoServer(ReloadingSslContext tls) throws InterruptedException {
        listener = new ServerBootstrap()
                .group(group)
                .channel(NioServerSocketChannel.class)
                .childHandler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel ch) {
                        ch.pipeline()
                                .addLast(
                                        tls.newServerHandler(ch.alloc()),
                                        new TlsHandshakeWatch("test", failedHandshakes::incrementAndGet),
                                        new Echo());
                    }
                })
                .bind("127.0.0.1", 0)
                .sync()
                .channel();
    }

    int port() {
        return ((InetSocketAddress) listener.localAddress()).getPort();
    }

    @Override
    public void close() {
        listener.close().syncUninterruptibly();
        group.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
    }

    private final class Echo extends ChannelInboundHandlerAdapter {
        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            ctx.writeAndFlush(msg);
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            errorsBehind.add(cause);
            ctx.close();
        }
    }
}
