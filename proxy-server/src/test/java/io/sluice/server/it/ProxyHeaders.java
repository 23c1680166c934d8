package io.sluice.server.it;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.haproxy.HAProxyCommand;
import io.netty.handler.codec.haproxy.HAProxyMessage;
import io.netty.handler.codec.haproxy.HAProxyMessageEncoder;
import io.netty.handler.codec.haproxy.HAProxyProtocolVersion;
import io.netty.handler.codec.haproxy.HAProxyProxiedProtocol;

import java.net.Socket;
import java.nio.charset.StandardCharsets;

/** PROXY protocol headers as a load balancer in front of Sluice writes them, for a {@link TcpTee}'s preface. */
public final class ProxyHeaders {

    private ProxyHeaders() {}

    /** A v1 text header naming {@code source} (an IPv4 address) and the relayed client's port as the client. */
    public static byte[] v1(String source, Socket client) {
        return ("PROXY TCP4 " + source + " 127.0.0.1 " + client.getPort() + " " + client.getLocalPort() + "\r\n")
                .getBytes(StandardCharsets.US_ASCII);
    }

    /** A v2 binary header naming {@code source} (an IPv6 address) and the relayed client's port as the client. */
    public static byte[] v2(String source, Socket client) {
        EmbeddedChannel encoder = new EmbeddedChannel(HAProxyMessageEncoder.INSTANCE);
        encoder.writeOutbound(new HAProxyMessage(
                HAProxyProtocolVersion.V2,
                HAProxyCommand.PROXY,
                HAProxyProxiedProtocol.TCP6,
                source,
                "::1",
                client.getPort(),
                client.getLocalPort()));
        ByteBuf out = encoder.readOutbound();
        try {
            return ByteBufUtil.getBytes(out);
        } finally {
            out.release();
            encoder.finishAndReleaseAll();
        }
    }
}
