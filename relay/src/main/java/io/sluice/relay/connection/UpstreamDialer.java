package io.sluice.relay.connection;

import io.netty.bootstrap.Bootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoop;
import io.netty.channel.WriteBufferWaterMark;
import io.netty.handler.ssl.SslHandler;
import io.netty.resolver.AddressResolverGroup;
import io.sluice.relay.tls.ReloadingSslContext;

import java.net.SocketAddress;
import java.util.Objects;

/**
 * How a front end opens upstream connections: on the client's event loop, so that both channels
 * of a connection share it and nothing needs a lock; its host name resolved without blocking that
 * loop ({@link UpstreamResolver}); without Nagle's delay; with a connect timeout,
 * which also bounds the TLS handshake where the upstream speaks TLS. The upstream pipeline is
 * <pre>
 * [SslHandler, when the upstream speaks TLS] -&gt; FrameDecoder -&gt; the connection's upstream handler
 * </pre>
 * and an attempt succeeds once the connection is up and its handshake done. Thread-safe: one
 * serves every connection of a front end.
 */
public final class UpstreamDialer {

    /** The outcome of one attempt. */
    interface Outcome {

        /** The upstream is up, its handshake done. */
        void ready();

        /** The TCP connect failed, or ({@code inTlsHandshake}) the TLS handshake after it. */
        void failed(Throwable cause, boolean inTlsHandshake);
    }

    private final Class<? extends Channel> channelType;
    private final int connectTimeoutMillis;
    private final WriteBufferWaterMark waterMark;
    private final ReloadingSslContext tls;

    /**
     * @param channelType          the socket channel class matching the event loops' transport
     * @param connectTimeoutMillis how long the TCP connect, and then the TLS handshake, may take
     * @param waterMark            when an upstream channel stops being writable, and is again
     * @param tls                  the TLS Sluice speaks to every upstream, or null for plaintext
     */
    public UpstreamDialer(
            Class<? extends Channel> channelType,
            int connectTimeoutMillis,
            WriteBufferWaterMark waterMark,
            ReloadingSslContext tls) {
        this.channelType = Objects.requireNonNull(channelType, "channelType");
        this.waterMark = Objects.requireNonNull(waterMark, "waterMark");
        if (connectTimeoutMillis <= 0) {
            throw new IllegalArgumentException("connectTimeoutMillis must be positive");
        }
        this.connectTimeoutMillis = connectTimeoutMillis;
        this.tls = tls;
    }

    /**
     * Starts opening {@code host:port} on {@code loop} with {@code frames} and {@code handler} in
     * its pipeline, and returns its channel at once; {@link Attempt#whenDone} hears how it went.
     * {@code resolver} resolves {@code host} without blocking the loop; a name that does not
     * resolve fails the attempt.
     */
    Attempt dial(
            EventLoop loop,
            AddressResolverGroup<? extends SocketAddress> resolver,
            String host,
            int port,
            FrameDecoder frames,
            ChannelHandler handler) {
        UpstreamPipeline pipeline = new UpstreamPipeline(host, port, frames, handler);
        ChannelFuture connecting = new Bootstrap()
                .group(loop)
                .resolver(resolver)
                .channel(channelType)
                .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, connectTimeoutMillis)
                .option(ChannelOption.TCP_NODELAY, true)
                .option(ChannelOption.WRITE_BUFFER_WATER_MARK, waterMark)
                .handler(pipeline)
                .connect(host, port);
        return new Attempt(connecting, pipeline);
    }

    /** One upstream connection being opened. */
    static final class Attempt {

        private final ChannelFuture connecting;
        private final UpstreamPipeline pipeline;

        private Attempt(ChannelFuture connecting, UpstreamPipeline pipeline) {
            this.connecting = connecting;
            this.pipeline = pipeline;
        }

        Channel channel() {
            return connecting.channel();
        }

        /** Tells {@code outcome} how the attempt went, once it is known; at once if it is. */
        void whenDone(Outcome outcome) {
            connecting.addListener((ChannelFutureListener) connected -> {
                if (!connected.isSuccess()) {
                    outcome.failed(connected.cause(), false);
                } else if (pipeline.tls == null) {
                    outcome.ready();
                } else {
                    pipeline.tls.handshakeFuture().addListener(handshake -> {
                        if (handshake.isSuccess()) {
                            outcome.ready();
                        } else {
                            outcome.failed(handshake.cause(), true);
                        }
                    });
                }
            });
        }
    }

    /** Assembles one upstream channel's pipeline and keeps its TLS handler, whose handshake the attempt waits for. */
    private final class UpstreamPipeline extends ChannelInitializer<Channel> {

        private final String host;
        private final int port;
        private final FrameDecoder frames;
        private final ChannelHandler handler;
        private SslHandler tls;

        UpstreamPipeline(String host, int port, FrameDecoder frames, ChannelHandler handler) {
            this.host = host;
            this.port = port;
            this.frames = frames;
            this.handler = handler;
        }

        @Override
        protected void initChannel(Channel ch) {
            if (UpstreamDialer.this.tls != null) {
                tls = UpstreamDialer.this.tls.newClientHandler(ch.alloc(), host, port, connectTimeoutMillis);
                ch.pipeline().addLast("tls", tls);
            }
            ch.pipeline().addLast("frames", frames);
            ch.pipeline().addLast("upstream", handler);
        }
    }
}
