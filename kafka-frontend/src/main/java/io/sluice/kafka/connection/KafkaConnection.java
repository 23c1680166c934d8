package io.sluice.kafka.connection;

import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.socket.SocketChannel;
import io.netty.handler.ssl.SslHandler;
import io.sluice.kafka.codec.InFlightRequests;
import io.sluice.kafka.codec.KafkaFrameDecoder;
import io.sluice.kafka.codec.RequestHeader;
import io.sluice.kafka.gates.Exchange;
import io.sluice.kafka.gates.KafkaGates;
import io.sluice.kafka.gates.KafkaOutbound;
import io.sluice.kafka.routing.BrokerEndpoint;
import io.sluice.relay.ConnectionState;
import io.sluice.relay.FrameView;
import io.sluice.relay.MalformedFrameException;
import io.sluice.relay.OutboundFrames;
import io.sluice.relay.ProxyServices;
import io.sluice.relay.ProxyStats;
import io.sluice.relay.ReadGate;
import io.sluice.relay.tls.TlsHandshakeWatch;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayDeque;
import java.util.List;

/**
 * One Kafka client connection and the upstream broker connection that serves it: its state
 * ({@link ConnectionState}), both channels' reads and writes, and the order of its answers
 * ({@link ResponseOrder}). {@link ClientHandler} and {@link BrokerHandler} route the frames their
 * decoders lend here; both channels run on the same event loop, so nothing here needs a lock.
 *
 * <p>States: CONNECTING from accept until the upstream connection is up (the first request to
 * forward opens it and waits, with the client's reads paused), FORWARDING, DRAINING on shutdown
 * (no new requests from the client; those in flight are answered), CLOSED.
 *
 * <p>Answers go back in request order, as Kafka clients need ({@link ResponseOrder}): a request
 * Sluice answers itself ({@link #answer}) takes its place in that order. Requests and responses
 * that pass through go on as the very bytes their decoder lent, joined by index into one write
 * per read ({@link OutboundFrames}).
 *
 * <p>Produce and Fetch requests go through the connection's quota gates ({@link KafkaGates}), which
 * forward them, cut or whole, or answer them here; the broker's response to a gated request passes
 * through the gate's {@link Exchange} before it is rewritten for the client.
 */
final class KafkaConnection implements KafkaOutbound {

    private static final Logger log = LoggerFactory.getLogger(KafkaConnection.class);

    /** Room for far more requests than a client pipelines (a Java client: 5 per connection). */
    static final int IN_FLIGHT_CAPACITY = InFlightRequests.DEFAULT_CAPACITY;
    /** Past this many unanswered requests the client is not read until half are answered. */
    static final int PAUSE_IN_FLIGHT = IN_FLIGHT_CAPACITY / 2;

    /** The largest response Sluice relays: a broker's fetch answers can be large, and it is trusted. */
    static final int MAX_RESPONSE_SIZE = Integer.MAX_VALUE - 4;

    /** Reasons to stop decoding the client's buffered bytes as well as reading its socket. */
    private static final int STOP_DECODING =
            ReadGate.CONNECTING | ReadGate.CONNECTION_LIMIT | ReadGate.DRAINING | ReadGate.QUOTA;

    final Channel client;
    private final KafkaSettings settings;
    private final ProxyServices services;
    private final ProxyStats stats;
    private final UpstreamRoute route;
    private final ResponseOrder responses;

    private final KafkaGates gates;
    private final ReadGate clientReads;
    private final OutboundFrames clientOut;
    /** Requests to forward once the upstream is connected, each a slice of its own. */
    private final ArrayDeque<ByteBuf> beforeConnected = new ArrayDeque<>();

    private ConnectionState state = ConnectionState.CONNECTING;
    private boolean handshakeCompleted;
    private Channel broker;
    private OutboundFrames brokerOut;
    private ReadGate brokerReads;

    KafkaConnection(Channel client, KafkaSettings settings, ProxyServices services, UpstreamRoute route) {
        this.client = client;
        this.settings = settings;
        this.services = services;
        this.stats = services.stats();
        this.route = route;
        this.responses =
                new ResponseOrder(this, settings.newRewriter(), services.upstreamLatency(), IN_FLIGHT_CAPACITY);
        this.clientReads = new ReadGate(client);
        this.clientOut = new OutboundFrames(client);
        this.gates = new KafkaGates(
                this, client.eventLoop(), services, settings.topicIds(), String.valueOf(client.remoteAddress()));
    }

    KafkaGates gates() {
        return gates;
    }

    ConnectionState state() {
        return state;
    }

    /** Forwards the lent request {@code frame}, unchanged, which the broker will answer as it is. */
    void forward(FrameView frame, RequestHeader header) {
        forward(frame, header, null);
    }

    @Override
    public void forward(FrameView frame, RequestHeader header, Exchange exchange) {
        awaitResponse(header, exchange);
        toUpstream(frame);
    }

    @Override
    public void forward(ByteBuf frame, RequestHeader header, Exchange exchange) {
        try {
            awaitResponse(header, exchange);
        } catch (MalformedFrameException e) {
            frame.release();
            throw e;
        }
        toUpstream(frame);
    }

    /** Answers a request with Sluice's own {@code answer}, in its turn; takes ownership of {@code answer}. */
    @Override
    public void answer(RequestHeader header, ByteBuf answer) {
        responses.answer(header, answer);
        pauseIfTooManyInFlight();
    }

    private void awaitResponse(RequestHeader header, Exchange exchange) {
        responses.forwarded(header, exchange);
        pauseIfTooManyInFlight();
    }

    private void pauseIfTooManyInFlight() {
        if (responses.size() >= PAUSE_IN_FLIGHT) {
            pauseClient(ReadGate.CONNECTION_LIMIT);
        }
    }

    /**
     * A lent response from the broker, which stays the broker decoder's: goes to the client in its
     * request's turn ({@link ResponseOrder#response}), after which the client may send more.
     */
    void response(FrameView frame) {
        responses.response(frame);
        if (!handshakeCompleted) {
            handshakeCompleted = true;
            client.pipeline().fireUserEventTriggered(HandshakeTimeout.COMPLETED);
        }
        if (responses.size() <= PAUSE_IN_FLIGHT / 2) {
            resumeClient(ReadGate.CONNECTION_LIMIT);
        }
        closeIfDrained();
    }

    @Override
    public void pauseRequests() {
        pauseClient(ReadGate.QUOTA);
    }

    @Override
    public void resumeRequests() {
        resumeClient(ReadGate.QUOTA);
    }

    @Override
    public void toUpstream(ByteBuf frame) {
        switch (state) {
            case CONNECTING -> {
                beforeConnected.add(frame);
                if (broker == null) {
                    connectUpstream();
                }
            }
            case FORWARDING, DRAINING -> brokerOut.add(frame);
            case CLOSED -> frame.release();
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
        switch (state) {
            case FORWARDING, DRAINING -> brokerOut.add(frame);
            case CONNECTING -> toUpstream(frame.retainedSlice());
            case CLOSED -> {}
        }
    }

    @Override
    public void toClient(FrameView frame) {
        if (state == ConnectionState.CLOSED) {
            toClient(frame.retainedSlice());
        } else {
            stats.bytesToClient(frame.length());
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
        if (brokerOut != null && state != ConnectionState.CONNECTING) {
            brokerOut.flush();
        }
    }

    void flushClient() {
        clientOut.flush();
    }

    /**
     * Opens the upstream connection for the first request to forward, trying the route's
     * addresses in turn; the client is not read meanwhile.
     */
    private void connectUpstream() {
        pauseClient(ReadGate.CONNECTING);
        List<BrokerEndpoint> endpoints = route.endpoints();
        if (endpoints.isEmpty()) {
            stats.upstreamConnectFailed();
            log.warn("Closing Kafka connection from {}: no address known for {} yet", client.remoteAddress(), route);
            close();
            return;
        }
        connect(endpoints, 0);
    }

    private void connect(List<BrokerEndpoint> endpoints, int attempt) {
        BrokerEndpoint target = endpoints.get(attempt);
        Bootstrap bootstrap = new Bootstrap()
                .group(client.eventLoop())
                .channel(settings.upstreamChannelType())
                .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, settings.connectTimeoutMillis())
                .option(ChannelOption.TCP_NODELAY, true)
                .option(ChannelOption.WRITE_BUFFER_WATER_MARK, KafkaChannelInitializer.WATER_MARK)
                .handler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel ch) {
                        KafkaChannelInitializer.initUpstream(
                                ch,
                                KafkaConnection.this,
                                settings.upstreamTls(),
                                target,
                                settings.connectTimeoutMillis());
                    }
                });
        ChannelFuture connecting = bootstrap.connect(target.host(), target.port());
        broker = connecting.channel();
        brokerOut = new OutboundFrames(broker);
        brokerReads = new ReadGate(broker);
        connecting.addListener((ChannelFutureListener) f -> {
            if (state == ConnectionState.CLOSED) {
                f.channel().close();
                return;
            }
            if (!f.isSuccess()) {
                stats.upstreamConnectFailed();
                services.connectFailures().record();
                if (attempt + 1 < endpoints.size()) {
                    log.debug(
                            "Upstream {} unreachable for {}, trying the next: {}",
                            target,
                            client.remoteAddress(),
                            f.cause().toString());
                    connect(endpoints, attempt + 1);
                    return;
                }
                log.warn(
                        "Closing Kafka connection from {}: {} unreachable: {}",
                        client.remoteAddress(),
                        route,
                        f.cause().toString());
                close();
                return;
            }
            SslHandler tls = f.channel().pipeline().get(SslHandler.class);
            if (tls != null) {
                tls.handshakeFuture().addListener(handshake -> upstreamHandshakeDone(target, handshake.cause()));
            }
            state = state.to(ConnectionState.FORWARDING);
            ByteBuf early;
            while ((early = beforeConnected.poll()) != null) {
                brokerOut.add(early);
            }
            brokerOut.flush();
            resumeClient(ReadGate.CONNECTING);
        });
    }

    /** A failed TLS handshake with the broker ({@code cause} not null) closes the connection, counted as a failed connect. */
    private void upstreamHandshakeDone(BrokerEndpoint target, Throwable cause) {
        if (cause == null || state == ConnectionState.CLOSED) {
            return;
        }
        stats.upstreamConnectFailed();
        services.connectFailures().record();
        log.warn(
                "Closing Kafka connection from {}: TLS handshake with {} failed: {}",
                client.remoteAddress(),
                target,
                TlsHandshakeWatch.reason(cause));
        close();
    }

    /**
     * Stops taking requests from the client and closes once every request in flight is answered.
     * A connection still connecting has had nothing answered: it closes at once.
     */
    void drain() {
        if (state != ConnectionState.FORWARDING) {
            close();
            return;
        }
        state = state.to(ConnectionState.DRAINING);
        pauseClient(ReadGate.DRAINING);
        closeIfDrained();
    }

    private void closeIfDrained() {
        if (state == ConnectionState.DRAINING && responses.isEmpty()) {
            close();
        }
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
     * Stops reading the client's socket and, but for a peer that is merely slow, decoding what is
     * buffered: nothing more reaches the handlers until {@link #resumeClient} lifts every reason.
     */
    private void pauseClient(int reason) {
        clientReads.pause(reason);
        if ((reason & STOP_DECODING) != 0) {
            decoder().pause();
        }
    }

    /** Lifts one reason to pause; decodes the buffered requests again once no reason to stop decoding is left. */
    private void resumeClient(int reason) {
        if (!clientReads.isPaused(reason)) {
            return;
        }
        clientReads.resume(reason);
        if (clientReads.isPaused(STOP_DECODING) || state == ConnectionState.CLOSED) {
            return;
        }
        decoder().resume();
        // Decode what is buffered from a fresh task, not from inside the broker's read.
        client.eventLoop().execute(() -> {
            if (state != ConnectionState.CLOSED) {
                client.pipeline().fireChannelRead(Unpooled.EMPTY_BUFFER);
                client.pipeline().fireChannelReadComplete();
            }
        });
    }

    private KafkaFrameDecoder decoder() {
        return client.pipeline().get(KafkaFrameDecoder.class);
    }

    /** Closes both sides, after what was already written has been flushed. */
    void close() {
        if (state == ConnectionState.CLOSED) {
            return;
        }
        flush();
        state = state.to(ConnectionState.CLOSED);
        ByteBuf early;
        while ((early = beforeConnected.poll()) != null) {
            early.release();
        }
        responses.close();
        gates.close();
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
                    "Closing Kafka connection from {}: {} ({})",
                    client.remoteAddress(),
                    malformed.getMessage(),
                    malformed.reason());
        } else {
            log.debug("Closing Kafka connection from {}", client.remoteAddress(), cause);
        }
        close();
    }
}
