package io.sluice.pulsar.proxy;

import io.sluice.relay.ProxyServices;
import io.sluice.relay.ProxyStats;
import io.sluice.relay.OutboundFrames;
import io.sluice.relay.ReadGate;
import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.socket.SocketChannel;
import io.sluice.pulsar.codec.FrameDecoder;
import io.sluice.pulsar.codec.FrameWriter;
import io.sluice.relay.MalformedFrameException;
import io.sluice.pulsar.codec.proto.ServerError;
import io.sluice.pulsar.proxy.BrokerAllowList.BrokerAddress;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayDeque;

/**
 * One client connection and the upstream broker connection that serves it: the state both
 * {@link ClientHandler} and {@link BrokerHandler} share. Both channels run on the same event loop,
 * so nothing here needs a lock.
 */
final class ProxyConnection {

    private static final Logger log = LoggerFactory.getLogger(ProxyConnection.class);

    /** A conforming client waits for CONNECTED; a few early frames are tolerated, more are abuse. */
    private static final int MAX_FRAMES_BEFORE_CONNECTED = 64;

    /** request_id that marks an error about the connection rather than one request. */
    private static final long CONNECTION_REQUEST_ID = -1L;

    final Channel client;
    final ProxySettings settings;
    final ProxyStats stats;
    final ProxyServices services;
    final ReadGate clientReads;
    final ResourceRegistry<ProducerState> producers = new ResourceRegistry<>(ProducerState::new);
    final ResourceRegistry<ConsumerState> consumers = new ResourceRegistry<>(ConsumerState::new);
    final ThrottleNotices notices;
    final PublishGate publish;
    final DispatchGate dispatch;

    private final OutboundFrames clientOut;
    private Channel broker;
    private OutboundFrames brokerOut;
    private ReadGate brokerReads;
    private boolean brokerConnected;
    private boolean closed;
    private boolean draining;
    private final ArrayDeque<ByteBuf> beforeConnected = new ArrayDeque<>();

    ProxyConnection(Channel client, ProxySettings settings, ProxyServices services) {
        this.client = client;
        this.settings = settings;
        this.stats = services.stats();
        this.services = services;
        this.clientReads = new ReadGate(client);
        this.clientOut = new OutboundFrames(client);
        this.notices = new ThrottleNotices(this, settings.throttleReceiptWindow().toNanos());
        this.publish = new PublishGate(this, services);
        this.dispatch = new DispatchGate(this, services);
    }

    boolean hasBroker() {
        return broker != null;
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
                log.warn("Refusing {}: proxy_to_broker_url '{}' is not allowed by --allowed-brokers '{}'",
                        client.remoteAddress(), proxyToBrokerUrl, settings.allowedBrokers());
                stats.protocolError("broker_not_allowed");
                refuse(ServerError.AuthorizationError,
                        "Sluice does not proxy to " + proxyToBrokerUrl + ": not in its allowed brokers");
                return;
            }
        }
        clientReads.pause(ReadGate.CONNECTING);
        BrokerAddress address = target;
        Bootstrap bootstrap = new Bootstrap()
                .group(client.eventLoop())
                .channel(settings.upstreamChannelType())
                .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, settings.connectTimeoutMillis())
                .option(ChannelOption.TCP_NODELAY, true)
                .handler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel ch) {
                        ch.pipeline().addLast("frames", new FrameDecoder());
                        ch.pipeline().addLast("broker", new BrokerHandler(ProxyConnection.this));
                    }
                });
        broker = bootstrap.connect(address.host(), address.port()).addListener((ChannelFutureListener) f -> {
            if (!f.isSuccess()) {
                connectFrame.release();
                stats.upstreamConnectFailed();
                services.connectFailures().record();
                log.warn("Upstream {} unreachable for {}: {}", address, client.remoteAddress(), f.cause().toString());
                refuse(ServerError.ServiceNotReady, "Sluice cannot reach broker " + address + ": " + f.cause().getMessage());
                return;
            }
            if (closed) {
                connectFrame.release();
                f.channel().close();
                return;
            }
            brokerConnected = true;
            f.channel().write(connectFrame, f.channel().voidPromise());
            while (!beforeConnected.isEmpty()) {
                f.channel().write(beforeConnected.poll(), f.channel().voidPromise());
            }
            f.channel().flush();
            clientReads.resume(ReadGate.CONNECTING);
        }).channel();
        brokerOut = new OutboundFrames(broker);
        brokerReads = new ReadGate(broker);
    }

    /** Stops taking commands from the client and closes once nothing of it is held or unanswered. */
    void drain() {
        draining = true;
        clientReads.pause(ReadGate.DRAINING);
        client.pipeline().get(FrameDecoder.class).pause();
        closeIfDrained();
    }

    /** While draining, closes the connection once the publish gate has nothing left in flight. */
    void closeIfDrained() {
        if (draining && !closed && publish.isIdle()) {
            close();
        }
    }

    /** Producer {@code id} is closed, by either side or by a migration. */
    void producerClosed(long id) {
        ProducerState producer = producers.closed(id);
        if (producer != null) {
            publish.producerGone(producer);
        }
    }

    /** Consumer {@code id} is closed, by either side or by a migration. */
    void consumerClosed(long id) {
        ConsumerState consumer = consumers.closed(id);
        if (consumer != null) {
            dispatch.consumerGone(consumer);
        }
    }

    /** Forwards a frame to the broker; takes ownership. Flushed at the end of the read batch. */
    void toBroker(ByteBuf frame) {
        if (!brokerConnected) {
            if (closed || beforeConnected.size() >= MAX_FRAMES_BEFORE_CONNECTED) {
                frame.release();
                if (!closed) {
                    fail(new MalformedFrameException("early_frames", "client sent too many frames before CONNECTED"));
                }
                return;
            }
            beforeConnected.add(frame);
            return;
        }
        if (closed) {
            broker.write(frame, broker.voidPromise());
        } else {
            brokerOut.add(frame);
        }
    }

    /** Forwards a frame to the client; takes ownership. Flushed at the end of the read batch. */
    void toClient(ByteBuf frame) {
        if (closed) {
            client.write(frame, client.voidPromise());
        } else {
            clientOut.add(frame);
        }
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
        if (brokerReads == null) {
            return;
        }
        if (client.isWritable()) {
            brokerReads.resume(ReadGate.PEER_UNWRITABLE);
        } else {
            brokerReads.pause(ReadGate.PEER_UNWRITABLE);
        }
    }

    /** The broker can take more bytes again, or cannot: read from the client accordingly. */
    void brokerWritabilityChanged() {
        if (broker.isWritable()) {
            clientReads.resume(ReadGate.PEER_UNWRITABLE);
        } else {
            clientReads.pause(ReadGate.PEER_UNWRITABLE);
        }
    }

    /**
     * Stops taking frames from the client: the socket is not read and frames already buffered
     * stay undecoded, so nothing more reaches the gate until {@link #resumeClientReads}.
     *
     * @return whether reading was going on until now
     */
    boolean pauseClientReads() {
        if (clientReads.isPaused(ReadGate.CONNECTION_LIMIT)) {
            return false;
        }
        clientReads.pause(ReadGate.CONNECTION_LIMIT);
        client.pipeline().get(FrameDecoder.class).pause();
        return true;
    }

    /** Takes frames from the client again, starting with those it buffered while paused. */
    void resumeClientReads() {
        if (clientReads.isPaused(ReadGate.CONNECTION_LIMIT)) {
            clientReads.resume(ReadGate.CONNECTION_LIMIT);
            if (draining) {
                return;
            }
            client.pipeline().get(FrameDecoder.class).resume();
            // Decode what is buffered from a fresh task, not from inside the broker's read.
            client.eventLoop().execute(() -> {
                if (!closed) {
                    client.pipeline().fireChannelRead(Unpooled.EMPTY_BUFFER);
                    client.pipeline().fireChannelReadComplete();
                }
            });
        }
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
        if (closed) {
            return;
        }
        // What was forwarded so far goes out before anything written while closing.
        flushClient();
        flushBroker();
        closed = true;
        ByteBuf early;
        while ((early = beforeConnected.poll()) != null) {
            early.release();
        }
        producers.clear().forEach(publish::producerGone);
        consumers.clear().forEach(dispatch::consumerGone);
        stats.connectionClosed();
        closeAfterFlush(client);
        if (broker != null) {
            closeAfterFlush(broker);
        }
    }

    /** Closes the connection because of {@code cause}, logging why. */
    void fail(Throwable cause) {
        if (closed) {
            return;
        }
        if (cause instanceof MalformedFrameException malformed) {
            stats.protocolError(malformed.reason());
            log.warn("Closing connection from {}: {} ({})", client.remoteAddress(), malformed.getMessage(), malformed.reason());
        } else {
            log.debug("Closing connection from {}", client.remoteAddress(), cause);
        }
        close();
    }

    /** Answers the client's CONNECT with an error and closes. */
    void refuse(ServerError error, String message) {
        ByteBuf frame = FrameWriter.error(client.alloc(), CONNECTION_REQUEST_ID, error, message);
        toClient(frame);
        close();
    }

    private static void closeAfterFlush(Channel channel) {
        if (channel.isActive()) {
            channel.writeAndFlush(Unpooled.EMPTY_BUFFER).addListener(ChannelFutureListener.CLOSE);
        } else {
            channel.close();
        }
    }
}
