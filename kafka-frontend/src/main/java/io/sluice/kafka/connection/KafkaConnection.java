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
import io.sluice.kafka.codec.ResponseHeader;
import io.sluice.kafka.gates.Exchange;
import io.sluice.kafka.gates.KafkaGates;
import io.sluice.kafka.gates.KafkaOutbound;
import io.sluice.kafka.routing.BrokerEndpoint;
import io.sluice.kafka.routing.ResponseRewriter;
import io.sluice.relay.ConnectionState;
import io.sluice.relay.MalformedFrameException;
import io.sluice.relay.OutboundFrames;
import io.sluice.relay.ProxyServices;
import io.sluice.relay.ProxyStats;
import io.sluice.relay.ReadGate;
import io.sluice.relay.tls.TlsHandshakeWatch;
import org.apache.kafka.common.protocol.ApiKeys;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayDeque;
import java.util.List;

/**
 * One Kafka client connection and the upstream broker connection that serves it: its state
 * ({@link ConnectionState}), both channels' reads and writes, the requests awaiting an answer and
 * the rewriting of responses. {@link ClientHandler} and {@link BrokerHandler} route frames here;
 * both channels run on the same event loop, so nothing here needs a lock.
 *
 * <p>States: CONNECTING from accept until the upstream connection is up (the first request to
 * forward opens it and waits, with the client's reads paused), FORWARDING, DRAINING on shutdown
 * (no new requests from the client; those in flight are answered), CLOSED.
 *
 * <p>Answers go back in request order, as Kafka clients need: each request the broker will answer
 * is remembered in {@link InFlightRequests}; a response must answer the oldest. A request Sluice
 * answers itself ({@link #answer}) takes its place in that order and goes out as soon as every
 * request before it has its response. Produce with {@code acks=0} gets no answer and is not remembered.
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

    private static final short PRODUCE = ApiKeys.PRODUCE.id;

    /** Reasons to stop decoding the client's buffered bytes as well as reading its socket. */
    private static final int STOP_DECODING =
            ReadGate.CONNECTING | ReadGate.CONNECTION_LIMIT | ReadGate.DRAINING | ReadGate.QUOTA;

    final Channel client;
    private final KafkaSettings settings;
    private final ProxyServices services;
    private final ProxyStats stats;
    private final UpstreamRoute route;
    private final ResponseRewriter rewriter;
    /**
     * Requests awaiting an answer; the context is Sluice's own answer (a {@link ByteBuf}), the
     * {@link Exchange} a gate's forwarded request answers through, or null for the broker's answer as is.
     */
    private final InFlightRequests<Object> inFlight = new InFlightRequests<>(IN_FLIGHT_CAPACITY);

    private final KafkaGates gates;
    private final ReadGate clientReads;
    private final OutboundFrames clientOut;
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
        this.rewriter = settings.newRewriter();
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

    /** Forwards a request the client sent, which the broker will answer. Takes ownership of {@code frame}. */
    void forward(ByteBuf frame, RequestHeader header) {
        remember(header, null, frame);
        toUpstream(frame);
    }

    @Override
    public void forward(ByteBuf frame, RequestHeader header, Exchange exchange) {
        remember(header, exchange, frame);
        toUpstream(frame);
    }

    /**
     * Answers a request with Sluice's own {@code answer}, in its turn: at once when no earlier
     * request awaits its response, else right after the last of them. Takes ownership of {@code answer}.
     */
    @Override
    public void answer(RequestHeader header, ByteBuf answer) {
        if (inFlight.isEmpty()) {
            toClient(answer);
        } else {
            remember(header, answer, answer);
        }
    }

    private void remember(RequestHeader header, Object context, ByteBuf releaseOnFailure) {
        try {
            inFlight.add(header.apiKey(), header.apiVersion(), header.correlationId(), System.nanoTime(), context);
        } catch (MalformedFrameException e) {
            releaseOnFailure.release();
            throw e;
        }
        if (inFlight.size() >= PAUSE_IN_FLIGHT) {
            pauseClient(ReadGate.CONNECTION_LIMIT);
        }
    }

    /**
     * A response from the broker: checks it answers the oldest request, rewrites it for the
     * client and sends it, then every answer of Sluice's own that waited for it. Takes ownership
     * of {@code frame}.
     */
    void response(ByteBuf frame) {
        try {
            inFlight.expect(ResponseHeader.correlationId(frame));
        } catch (MalformedFrameException e) {
            frame.release();
            throw e;
        }
        short apiKey = inFlight.oldestApiKey();
        short apiVersion = inFlight.oldestApiVersion();
        if (apiKey == PRODUCE) {
            long now = System.nanoTime();
            services.upstreamLatency().record(now - inFlight.oldestSentAtNanos(), now);
        }
        Object context = inFlight.oldestContext();
        // Off the list first: an exchange that fails is not abandoned as well when the connection closes.
        inFlight.removeOldest();
        ByteBuf answered = context instanceof Exchange exchange ? exchange.complete(frame) : frame;
        toClient(rewriter.rewrite(client.alloc(), answered, apiKey, apiVersion));
        while (!inFlight.isEmpty() && inFlight.oldestContext() instanceof ByteBuf ownAnswer) {
            toClient(ownAnswer);
            inFlight.removeOldest();
        }
        if (!handshakeCompleted) {
            handshakeCompleted = true;
            client.pipeline().fireUserEventTriggered(HandshakeTimeout.COMPLETED);
        }
        if (inFlight.size() <= PAUSE_IN_FLIGHT / 2) {
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
        if (state == ConnectionState.DRAINING && inFlight.isEmpty()) {
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
        while (!inFlight.isEmpty()) {
            Object context = inFlight.oldestContext();
            inFlight.removeOldest();
            if (context instanceof ByteBuf ownAnswer) {
                ownAnswer.release();
            } else if (context instanceof Exchange exchange) {
                exchange.abandon();
            }
        }
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
