package io.sluice.relay.proxyprotocol;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.DecoderException;
import io.netty.handler.codec.haproxy.HAProxyCommand;
import io.netty.handler.codec.haproxy.HAProxyMessage;
import io.netty.handler.codec.haproxy.HAProxyProxiedProtocol;
import io.netty.util.NetUtil;
import io.sluice.relay.ClientAddress;
import io.sluice.relay.ProxyStats;

import java.net.InetAddress;
import java.net.InetSocketAddress;

/**
 * Takes the client's address from the header Netty's {@code HAProxyMessageDecoder} decoded just
 * before it, puts it on the channel ({@link ClientAddress#KEY}) and lets the
 * connection open, then leaves the pipeline (the decoder leaves after it, handing on the bytes
 * that followed the header). A {@code LOCAL} header (a load balancer's own health check) or one
 * of an unspecified or UNIX address keeps the socket's peer as the client. A header the decoder
 * cannot read closes the connection. One instance per connection, on its event loop.
 */
final class ProxyHeaderTaker extends ChannelInboundHandlerAdapter {

    private final String connections;
    private final ProxyStats stats;

    ProxyHeaderTaker(String connections, ProxyStats stats) {
        this.connections = connections;
        this.stats = stats;
    }

    /** Takes ownership of {@code msg}, the decoded header, and releases it. */
    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (!(msg instanceof HAProxyMessage header)) {
            ctx.fireChannelRead(msg);
            return;
        }
        try {
            InetSocketAddress source = source(header);
            if (source != null) {
                ctx.channel().attr(ClientAddress.KEY).set(source);
            }
        } finally {
            header.release();
        }
        ProxyHeaderGate.open(ctx);
        ctx.pipeline().remove(this);
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        if (cause instanceof DecoderException) {
            ProxyHeaderGate.refuse(
                    ctx,
                    connections,
                    stats,
                    ProxyHeaderGate.INVALID,
                    "an invalid PROXY protocol header: " + cause.getMessage());
        } else {
            ctx.fireExceptionCaught(cause);
        }
    }

    /** The client's address the header names, or null when it names none Sluice can key on. */
    static InetSocketAddress source(HAProxyMessage header) {
        if (header.command() != HAProxyCommand.PROXY) {
            return null;
        }
        HAProxyProxiedProtocol.AddressFamily family = header.proxiedProtocol().addressFamily();
        if (family != HAProxyProxiedProtocol.AddressFamily.AF_IPv4
                && family != HAProxyProxiedProtocol.AddressFamily.AF_IPv6) {
            return null;
        }
        InetAddress address = NetUtil.createInetAddressFromIpAddressString(header.sourceAddress());
        return address == null ? null : new InetSocketAddress(address, header.sourcePort());
    }
}
