package io.sluice.relay.tls;

import io.netty.channel.ChannelHandler.Sharable;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.DecoderException;
import io.netty.handler.ssl.NotSslRecordException;
import io.netty.handler.ssl.SslHandler;
import io.netty.handler.ssl.SslHandshakeCompletionEvent;
import io.sluice.relay.ClientText;
import io.sluice.relay.RepeatedWarning;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import javax.net.ssl.SSLException;
import java.nio.channels.ClosedChannelException;

/**
 * Sits right behind the {@link SslHandler} of an accepted connection and reports a handshake that
 * failed (a plaintext client on a TLS port, a client certificate that is missing, expired or from
 * another CA, a client that does not trust Sluice's certificate): one log line naming the peer and
 * the reason (one line per port every ten seconds at most, saying how many were left out), and the given callback (the Pulsar port counts
 * {@code sluice_protocol_errors_total{reason="tls_handshake"}}). The {@code SslHandler} closes the
 * connection itself; the exception that follows is swallowed here, so that the handlers behind
 * never see bytes of a connection that never spoke TLS.
 *
 * <p>The reason never quotes the peer's bytes: Netty's {@link NotSslRecordException} carries a hex
 * dump of what a plaintext client sent, which may be a CONNECT with its credentials.
 */
@Sharable
public final class TlsHandshakeWatch extends ChannelInboundHandlerAdapter {

    /** The {@code sluice_protocol_errors_total} reason of a failed handshake. */
    public static final String REASON = "tls_handshake";

    private static final Logger log = LoggerFactory.getLogger(TlsHandshakeWatch.class);

    private final String port;
    private final Runnable onFailure;
    private final RepeatedWarning failed = new RepeatedWarning();

    /**
     * @param port      which port, in the log line, e.g. {@code Pulsar}
     * @param onFailure run on the connection's event loop for each failed handshake
     */
    public TlsHandshakeWatch(String port, Runnable onFailure) {
        this.port = port;
        this.onFailure = onFailure;
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object event) {
        if (event instanceof SslHandshakeCompletionEvent completion && !completion.isSuccess()) {
            onFailure.run();
            long leftOut = failed.admit();
            if (leftOut >= 0) {
                log.warn(
                        "Closing connection from {} on the {} port: TLS handshake failed: {} ({}){}",
                        ctx.channel().remoteAddress(),
                        port,
                        ClientText.of(reason(completion.cause())),
                        REASON,
                        RepeatedWarning.leftOut(leftOut));
            }
        }
        ctx.fireUserEventTriggered(event);
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        SslHandler tls = ctx.pipeline().get(SslHandler.class);
        if (tls != null && tls.handshakeFuture().cause() != null) {
            // Reported by the handshake's completion event; the connection is closing.
            return;
        }
        ctx.fireExceptionCaught(cause);
    }

    /** Why a handshake failed, in words that hold nothing the peer sent. */
    public static String reason(Throwable cause) {
        Throwable c = cause instanceof DecoderException && cause.getCause() != null ? cause.getCause() : cause;
        if (c instanceof NotSslRecordException) {
            return "the peer does not speak TLS";
        }
        if (c instanceof ClosedChannelException) {
            return "the peer closed the connection";
        }
        if (c instanceof SSLException && c.getMessage() != null) {
            return c.getMessage();
        }
        return c.getClass().getSimpleName();
    }
}
