package io.sluice.relay.proxyprotocol;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.ByteToMessageDecoder;
import io.netty.handler.codec.haproxy.HAProxyMessageDecoder;
import io.sluice.relay.ProxyStats;
import io.sluice.relay.RefusedConnections;

import java.util.List;

/**
 * The first handler of a client connection on a port with {@code --proxy-protocol}: looks at the
 * connection's first bytes, before TLS and framing, to tell whether they start a PROXY protocol
 * header, and decides. A header from a trusted peer of the version the port takes goes to Netty's
 * {@link HAProxyMessageDecoder} and a {@link ProxyHeaderTaker}, which this handler puts in its
 * place; a connection without one (on an {@code optional} port) opens with its socket's peer as
 * the client; anything else is closed, logged and counted in
 * {@code sluice_connections_refused_total} under one of the reasons below.
 *
 * <p>Holds back {@code channelActive} until the client's address is known, so the connection
 * opens (and its front end names the client) only then. Decides on at most 12 bytes, a header's
 * signature; the header's own length is bounded by the decoder ({@link #MAX_TLV_BYTES}), its time
 * by the handshake deadline that starts at accept. One instance per connection, on its event loop.
 */
final class ProxyHeaderGate extends ByteToMessageDecoder {

    /** A header from a peer outside {@code --proxy-protocol-from}. */
    static final String UNTRUSTED = "proxy_protocol_untrusted";

    /** No header, or one of the other version, where the port requires one. */
    static final String MISSING = "proxy_protocol_missing";

    /** A header that is not a valid one, or too long. */
    static final String INVALID = "proxy_protocol_invalid";

    /** The TLVs a v2 header may carry (a load balancer's are a few dozen bytes). */
    static final int MAX_TLV_BYTES = 4096;

    private static final RefusedConnections REFUSED = new RefusedConnections();
    private static final byte[] V1_SIGNATURE = {'P', 'R', 'O', 'X', 'Y', ' '};
    private static final byte[] V2_SIGNATURE = {0x0D, 0x0A, 0x0D, 0x0A, 0x00, 0x0D, 0x0A, 0x51, 0x55, 0x49, 0x54, 0x0A};

    private final ProxyProtocol settings;
    private final String connections;
    private final ProxyStats stats;

    ProxyHeaderGate(ProxyProtocol settings, String connections, ProxyStats stats) {
        this.settings = settings;
        this.connections = connections;
        this.stats = stats;
    }

    /** Held back: the connection opens when its address is known ({@link #open}). */
    @Override
    public void channelActive(ChannelHandlerContext ctx) {}

    /** Leaves {@code in} alone until it decides; then this handler leaves and its bytes go on whole. */
    @Override
    protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
        Signature v1 = Signature.at(in, V1_SIGNATURE);
        Signature v2 = Signature.at(in, V2_SIGNATURE);
        if (v1 == Signature.INCOMPLETE || v2 == Signature.INCOMPLETE) {
            return;
        }
        ProxyProtocol.Mode mode = settings.mode();
        if (v1 == Signature.FOUND || v2 == Signature.FOUND) {
            if (!settings.trusted().trusts(ctx.channel().remoteAddress())) {
                refuse(
                        ctx,
                        in,
                        UNTRUSTED,
                        "a PROXY protocol header from a peer outside --proxy-protocol-from (" + settings.trusted()
                                + ")");
            } else if (mode == ProxyProtocol.Mode.V1 && v2 == Signature.FOUND
                    || mode == ProxyProtocol.Mode.V2 && v1 == Signature.FOUND) {
                refuse(
                        ctx,
                        in,
                        MISSING,
                        "a PROXY protocol " + (v1 == Signature.FOUND ? "v1" : "v2")
                                + " header where --proxy-protocol is " + mode.option());
            } else {
                ctx.pipeline()
                        .addAfter(ctx.name(), "proxy-header", new HAProxyMessageDecoder(MAX_TLV_BYTES))
                        .addAfter("proxy-header", "proxy-address", new ProxyHeaderTaker(connections, stats));
                ctx.pipeline().remove(this);
            }
        } else if (mode == ProxyProtocol.Mode.OPTIONAL) {
            open(ctx);
            ctx.pipeline().remove(this);
        } else {
            refuse(ctx, in, MISSING, "no PROXY protocol " + mode.option() + " header, which --proxy-protocol requires");
        }
    }

    /** Nothing is decided on the bytes of a connection that closes before its header is whole. */
    @Override
    protected void decodeLast(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {}

    /** Lets the connection open with what the channel knows of the client. */
    static void open(ChannelHandlerContext ctx) {
        ctx.fireChannelActive();
    }

    /** Drops what {@code in} holds: nothing of a refused connection is decided on twice. */
    private void refuse(ChannelHandlerContext ctx, ByteBuf in, String reason, String why) {
        in.skipBytes(in.readableBytes());
        refuse(ctx, connections, stats, reason, why);
    }

    /** Closes a connection whose header is not taken, counts it and logs it (at most once per interval). */
    static void refuse(ChannelHandlerContext ctx, String connections, ProxyStats stats, String reason, String why) {
        REFUSED.refuse(ctx, ctx.channel().remoteAddress(), connections, stats, reason, why);
    }

    /** How the bytes so far compare with a header's signature. */
    private enum Signature {
        FOUND,
        INCOMPLETE,
        ABSENT;

        static Signature at(ByteBuf in, byte[] signature) {
            int start = in.readerIndex();
            int available = Math.min(in.readableBytes(), signature.length);
            for (int i = 0; i < available; i++) {
                if (in.getByte(start + i) != signature[i]) {
                    return ABSENT;
                }
            }
            return available == signature.length ? FOUND : INCOMPLETE;
        }
    }
}
