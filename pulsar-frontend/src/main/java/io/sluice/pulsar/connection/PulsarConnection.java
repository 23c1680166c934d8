package io.sluice.pulsar.connection;

import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.socket.SocketChannel;
import io.netty.handler.ssl.SslHandler;
import io.sluice.pulsar.codec.FrameDecoder;
import io.sluice.pulsar.codec.FrameWriter;
import io.sluice.pulsar.codec.proto.ServerError;
import io.sluice.pulsar.gates.DispatchGate;
import io.sluice.pulsar.gates.PublishGate;
import io.sluice.pulsar.lookup.BrokerAllowList.BrokerAddress;
import io.sluice.relay.ConnectionBudget;
import io.sluice.relay.ConnectionState;
import io.sluice.relay.FrameView;
import io.sluice.relay.MalformedFrameException;
import io.sluice.relay.Outbound;
import io.sluice.relay.OutboundFrames;
import io.sluice.relay.ProxyServices;
import io.sluice.relay.ProxyStats;
import io.sluice.relay.ReadGate;
import io.sluice.relay.tls.ReloadingSslContext;
import io.sluice.relay.tls.TlsHandshakeWatch;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayDeque;

/**
 * One client connection and the upstream broker connection that serves it: its state
 * ({@link ConnectionState}), both channels' reads and writes, and the gates that meter its
 * producers and consumers. {@link ClientHandler} and {@link BrokerHandler} route frames here;
 * both channels run on the same event loop, so nothing here needs a lock.
 *
 * <p>States: CONNECTING from accept until the upstream connection is up (the client's CONNECT
 * opens it; frames that arrive meanwhile wait), FORWARDING, DRAINING on shutdown (no new commands
 * from the client; held sends go on and their receipts come back), CLOSED.
 */
final class PulsarConnection implements Outbound {

    private static final Logger log = LoggerFactory.getLogger(PulsarConnection.class);

    /** A conforming client waits for CONNECTED; a few early frames are tolerated, more are abuse. */
    private static final int MAX_FRAMES_BEFORE_CONNECTED = 64;

    /** The request_id of an ERROR about the connection as a whole rather than one request. */
    private static final long CONNECTION_REQUEST_ID = -1L;

    final Channel client;
    final PulsarSettings settings;
    final ProxyServices services;
    final PublishGate publish;
    final DispatchGate dispatch;

    private final ProxyStats stats;
    private final ReadGate clientReads;
    private final OutboundFrames clientOut;
    private final ArrayDeque<ByteBuf> beforeConnected = new ArrayDeque<>();
    private ConnectionState state = ConnectionState.CONNECTING;
    private Channel broker;
    private OutboundFrames brokerOut;
    private ReadGate brokerReads;

    PulsarConnection(Channel client, PulsarSettings settings, ProxyServices services) {
        this.client = client;
        this.settings = settings;
        this.services = services;
        this.stats = services.stats();
        this.clientReads = new ReadGate(client);
        this.clientOut = new OutboundFrames(client);
        String clientAddress = String.valueOf(client.remoteAddress());
        this.publish = new PublishGate(
                this,
                client.eventLoop(),
                services,
                clientAddress,
                settings.throttleReceiptWindow(),
                new ConnectionBudget.Pause() {
                    @Override
                    public void pause(ConnectionBudget.Breach breach) {
                        pauseClientReads();
                    }

                    @Override
                    public void resume() {
                        resumeClientReads();
                    }
                });
        this.dispatch = new DispatchGate(this, client.eventLoop(), services, clientAddress);
    }

    /** Whether the client's CONNECT has asked for the upstream connection yet. */
    boolean hasBroker() {
        return broker != null;
    }

    ConnectionState state() {
        return state;
    }

    /**
     * Opens the upstream connection for a client's CONNECT and forwards the CONNECT frame as it
     * came, auth data included. Takes ownership of {@code connectFrame}.
     */
    void connectUpstream(ByteBuf connectFrame, String proxyToBrokerUrl) {
        BrokerAddress target = settings.upstream();
        if (proxyToBrokerUrl != null && !proxyToBrokerUrl.isEmpty()) {
            target = settings.allowedBrokers().resolve(proxyToBrokerUrl);
            if (target == null) {
                connectFrame.release();
                log.warn(
                        "Refusing {}: proxy_to_broker_url '{}' is not allowed by --allowed-brokers '{}'",
                        client.remoteAddress(),
                        proxyToBrokerUrl,
                        settings.allowedBrokers());
                stats.protocolError("broker_not_allowed");
                refuse(
                        ServerError.AuthorizationError,
                        "Sluice does not proxy to " + proxyToBrokerUrl + ": not in its allowed brokers");
                return;
            }
        }
        clientReads.pause(ReadGate.CONNECTING);
        BrokerAddress address = target;
        ReloadingSslContext tls = settings.upstreamTls();
        Bootstrap bootstrap = new Bootstrap()
                .group(client.eventLoop())
                .channel(settings.upstreamChannelType())
                .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, settings.connectTimeoutMillis())
                .option(ChannelOption.TCP_NODELAY, true)
                .handler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel ch) {
                        if (tls != null) {
                            ch.pipeline()
                                    .addLast(
                                            "tls",
                                            tls.newClientHandler(
                                                    ch.alloc(),
                                                    address.host(),
                                                    address.port(),
                                                    settings.connectTimeoutMillis()));
                        }
                        ch.pipeline().addLast("frames", new FrameDecoder());
                        ch.pipeline().addLast("broker", new BrokerHandler(PulsarConnection.this));
                    }
                });
        broker = bootstrap
                .connect(address.host(), address.port())
                .addListener((ChannelFutureListener) f -> {
                    if (!f.isSuccess()) {
                        upstreamFailed(
                                connectFrame,
                                address,
                                f.cause().toString(),
                                f.cause().getMessage());
                        return;
                    }
                    SslHandler upstreamTls = f.channel().pipeline().get(SslHandler.class);
                    if (upstreamTls == null) {
                        upstreamConnected(f.channel(), connectFrame);
                        return;
                    }
                    upstreamTls.handshakeFuture().addListener(handshake -> {
                        if (handshake.isSuccess()) {
                            upstreamConnected(f.channel(), connectFrame);
                        } else {
                            String reason = "TLS handshake failed: " + TlsHandshakeWatch.reason(handshake.cause());
                            upstreamFailed(connectFrame, address, reason, reason);
                        }
                    });
                })
                .channel();
        brokerOut = new OutboundFrames(broker);
        brokerReads = new ReadGate(broker);
    }

    /** The upstream connection is up (its TLS handshake done, if any): forwards the CONNECT and what came after it. */
    private void upstreamConnected(Channel upstream, ByteBuf connectFrame) {
        if (state == ConnectionState.CLOSED) {
            connectFrame.release();
            upstream.close();
            return;
        }
        state = state.to(ConnectionState.FORWARDING);
        upstream.write(connectFrame, upstream.voidPromise());
        while (!beforeConnected.isEmpty()) {
            upstream.write(beforeConnected.poll(), upstream.voidPromise());
        }
        upstream.flush();
        clientReads.resume(ReadGate.CONNECTING);
    }

    /** The upstream connection failed: tells the client it is Sluice that cannot reach the broker. Takes ownership of {@code connectFrame}. */
    private void upstreamFailed(ByteBuf connectFrame, BrokerAddress address, String logged, String told) {
        connectFrame.release();
        stats.upstreamConnectFailed();
        services.connectFailures().record();
        log.warn("Upstream {} unreachable for {}: {}", address, client.remoteAddress(), logged);
        refuse(ServerError.ServiceNotReady, "Sluice cannot reach broker " + address + ": " + told);
    }

    /**
     * Stops taking commands from the client and closes once nothing of it is held or unanswered.
     * A connection still connecting has nothing the broker acknowledged: it closes at once.
     */
    void drain() {
        if (state != ConnectionState.FORWARDING) {
            close();
            return;
        }
        state = state.to(ConnectionState.DRAINING);
        clientReads.pause(ReadGate.DRAINING);
        client.pipeline().get(FrameDecoder.class).pause();
        closeIfDrained();
    }

    /** While draining, closes the connection once the publish gate has nothing left in flight. */
    void closeIfDrained() {
        if (state == ConnectionState.DRAINING && publish.isIdle()) {
            close();
        }
    }

    @Override
    public void toUpstream(ByteBuf frame) {
        switch (state) {
            case CONNECTING -> {
                if (beforeConnected.size() >= MAX_FRAMES_BEFORE_CONNECTED) {
                    frame.release();
                    fail(new MalformedFrameException("early_frames", "client sent too many frames before CONNECTED"));
                    return;
                }
                beforeConnected.add(frame);
            }
            case FORWARDING, DRAINING -> brokerOut.add(frame);
            // What a gate releases while the connection closes goes straight to a closing channel.
            case CLOSED -> {
                if (broker != null && broker.isActive()) {
                    broker.write(frame, broker.voidPromise());
                } else {
                    frame.release();
                }
            }
        }
    }

    @Override
    public void toClient(ByteBuf frame) {
        stats.bytesToClient(frame.readableBytes());
        if (state == ConnectionState.CLOSED) {
            client.write(frame, client.voidPromise());
        } else {
            clientOut.add(frame);
        }
    }

    @Override
    public void toUpstream(FrameView frame) {
        if (state == ConnectionState.FORWARDING || state == ConnectionState.DRAINING) {
            brokerOut.add(frame);
        } else {
            toUpstream(frame.retainedSlice());
        }
    }

    @Override
    public void toClient(FrameView frame) {
        if (state == ConnectionState.CLOSED) {
            toClient(frame.retainedSlice());
        } else {
            clientOut.add(frame);
        }
    }

    @Override
    public void flush() {
        flushBroker();
        flushClient();
    }

    @Override
    public ByteBufAllocator alloc() {
        return client.alloc();
    }

    void flushBroker() {
        if (brokerOut != null) {
            brokerOut.flush();
        }
    }

    void flushClient() {
        clientOut.flush();
    }

    /** The client can take more bytes again, or cannot: read from the broker accordingly. */
    void clientWritabilityChanged() {
        if (brokerReads != null) {
            brokerReads.followWritability(client);
        }
    }

    /** The broker can take more bytes again, or cannot: read from the client accordingly. */
    void brokerWritabilityChanged() {
        clientReads.followWritability(broker);
    }

    /**
     * Stops taking frames from the client: the socket is not read and frames already buffered
     * stay undecoded, so nothing more reaches the gates until {@link #resumeClientReads}.
     */
    private void pauseClientReads() {
        clientReads.pause(ReadGate.CONNECTION_LIMIT);
        client.pipeline().get(FrameDecoder.class).pause();
    }

    /** Takes frames from the client again, starting with those it buffered while paused. */
    private void resumeClientReads() {
        clientReads.resume(ReadGate.CONNECTION_LIMIT);
        if (state != ConnectionState.FORWARDING) {
            return;
        }
        client.pipeline().get(FrameDecoder.class).resume();
        // Decode what is buffered from a fresh task, not from inside the broker's read.
        client.eventLoop().execute(() -> {
            if (state != ConnectionState.CLOSED) {
                client.pipeline().fireChannelRead(Unpooled.EMPTY_BUFFER);
                client.pipeline().fireChannelReadComplete();
            }
        });
    }

    /** The broker's CONNECTED is on its way to the client: the handshake timeout no longer applies. */
    void handshakeCompleted() {
        client.pipeline().fireUserEventTriggered(HandshakeTimeout.COMPLETED);
    }

    /** Applies the broker's max message size to the frames accepted from both sides. */
    void maxMessageSize(int size) {
        if (size <= 0) {
            return;
        }
        client.pipeline().get(FrameDecoder.class).setMaxMessageSize(size);
        broker.pipeline().get(FrameDecoder.class).setMaxMessageSize(size);
    }

    /** Closes both sides, after what was already written has been flushed. */
    void close() {
        if (state == ConnectionState.CLOSED) {
            return;
        }
        // What was forwarded so far goes out before anything written while closing.
        flush();
        state = state.to(ConnectionState.CLOSED);
        ByteBuf early;
        while ((early = beforeConnected.poll()) != null) {
            early.release();
        }
        publish.close();
        dispatch.close();
        stats.connectionClosed();
        OutboundFrames.closeWhenFlushed(client);
        if (broker != null) {
            OutboundFrames.closeWhenFlushed(broker);
        }
    }

    /** Closes the connection because of {@code cause}, logging why. */
    void fail(Throwable cause) {
        if (state == ConnectionState.CLOSED) {
            return;
        }
        if (cause instanceof MalformedFrameException malformed) {
            stats.protocolError(malformed.reason());
            log.warn(
                    "Closing connection from {}: {} ({})",
                    client.remoteAddress(),
                    malformed.getMessage(),
                    malformed.reason());
        } else {
            log.debug("Closing connection from {}", client.remoteAddress(), cause);
        }
        close();
    }

    /** Answers the client's CONNECT with an error and closes. */
    void refuse(ServerError error, String message) {
        toClient(FrameWriter.error(client.alloc(), CONNECTION_REQUEST_ID, error, message));
        close();
    }
}
