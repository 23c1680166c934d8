package io.sluice.relay.proxyprotocol;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.haproxy.HAProxyProtocolVersion;
import io.sluice.relay.ClientAddress;
import io.sluice.relay.ProxyStats;
import io.sluice.testing.EmbeddedSocketChannel;
import io.sluice.testing.ProxyHeaders;

import java.io.ByteArrayOutputStream;
import java.net.SocketAddress;

/**
 * A client connection from 127.0.0.1:40000 whose pipeline starts with the header gate, in memory,
 * and what the handlers after it saw: whether the connection opened, with which client address,
 * and the bytes that came on.
 */
final class ProxiedClient extends ChannelInboundHandlerAdapter {

    final ProxyStats stats = new ProxyStats("pulsar");
    final EmbeddedSocketChannel channel;
    final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    SocketAddress opened;

    ProxiedClient(ProxyProtocol settings) throws Exception {
        channel = new EmbeddedSocketChannel(settings.newHeaderGate("Pulsar connection", stats), this);
    }

    /** Writes {@code data} as one read; the channel takes ownership of the buffer. */
    ProxiedClient read(byte[] data) {
        channel.writeInbound(Unpooled.wrappedBuffer(data));
        channel.runPendingTasks();
        return this;
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) {
        SocketAddress announced = ctx.channel().attr(ClientAddress.KEY).get();
        opened = announced != null ? announced : ctx.channel().remoteAddress();
    }

    /** Takes ownership of {@code msg} and releases it. */
    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        ByteBuf in = (ByteBuf) msg;
        try {
            bytes.writeBytes(ByteBufUtil.getBytes(in));
        } finally {
            in.release();
        }
    }

    long refused(String reason) {
        return stats.refusedConnections().getOrDefault(reason, 0L);
    }

    /** A PROXY header of {@code version} naming {@code source:port} as the client of a TCP connection. */
    static byte[] header(HAProxyProtocolVersion version, String source, int port) {
        return ProxyHeaders.header(version, source, port, 6650);
    }

    static byte[] concat(byte[] a, byte[] b) {
        byte[] both = new byte[a.length + b.length];
        System.arraycopy(a, 0, both, 0, a.length);
        System.arraycopy(b, 0, both, a.length, b.length);
        return both;
    }
}
