package io.sluice.testing;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.haproxy.HAProxyCommand;
import io.netty.handler.codec.haproxy.HAProxyMessage;
import io.netty.handler.codec.haproxy.HAProxyMessageEncoder;
import io.netty.handler.codec.haproxy.HAProxyProtocolVersion;
import io.netty.handler.codec.haproxy.HAProxyProxiedProtocol;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;

/** PROXY protocol headers as a load balancer in front of Sluice writes them (Netty's encoder). */
public final class ProxyHeaders {

    private ProxyHeaders() {}

    /** A header of {@code version} naming {@code source:sourcePort} (IPv4 or IPv6) as the client of a TCP connection. */
    public static byte[] header(HAProxyProtocolVersion version, String source, int sourcePort, int destinationPort) {
        boolean six = source.contains(":");
        return encode(new HAProxyMessage(
                version,
                HAProxyCommand.PROXY,
                six ? HAProxyProxiedProtocol.TCP6 : HAProxyProxiedProtocol.TCP4,
                source,
                six ? "::1" : "127.0.0.1",
                sourcePort,
                destinationPort));
    }

    /** {@code message}'s bytes; releases the message. */
    public static byte[] encode(HAProxyMessage message) {
        EmbeddedChannel encoder = new EmbeddedChannel(HAProxyMessageEncoder.INSTANCE);
        encoder.writeOutbound(message);
        ByteBuf out = encoder.readOutbound();
        try {
            return ByteBufUtil.getBytes(out);
        } finally {
            out.release();
            encoder.finishAndReleaseAll();
        }
    }

    /**
     * Connects to {@code target} from {@code localAddress} (another loopback address, outside
     * the trusted blocks), writes a v1 header and returns the first byte read back: -1 when the
     * connection was closed without an answer.
     */
    public static int answerToAHeaderFrom(String localAddress, InetSocketAddress target) throws IOException {
        try (Socket socket = new Socket()) {
            socket.bind(new InetSocketAddress(InetAddress.getByName(localAddress), 0));
            socket.connect(target);
            socket.setSoTimeout(10_000);
            socket.getOutputStream()
                    .write(header(HAProxyProtocolVersion.V1, "203.0.113.9", socket.getLocalPort(), target.getPort()));
            return socket.getInputStream().read();
        }
    }
}
