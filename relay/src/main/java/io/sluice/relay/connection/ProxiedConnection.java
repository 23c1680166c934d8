package io.sluice.relay.connection;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.channel.Channel;
import io.netty.channel.EventLoop;
import io.netty.handler.ssl.SslHandler;
import io.sluice.relay.ClientAddress;
import io.sluice.relay.ClientText;
import io.sluice.relay.FrameView;
import io.sluice.relay.MalformedFrameException;
import io.sluice.relay.Outbound;
import io.sluice.relay.OutboundFrames;
import io.sluice.relay.ProxyStats;
import io.sluice.relay.ReadGate;
import io.sluice.relay.RepeatedWarning;
import io.sluice.relay.connection.ConnectionState.Accepted;
import io.sluice.relay.connection.ConnectionState.AwaitingFirstFrame;
import io.sluice.relay.connection.ConnectionState.Closed;
import io.sluice.relay.connection.ConnectionState.Connected;
import io.sluice.relay.connection.ConnectionState.Connecting;
import io.sluice.relay.connection.ConnectionState.Draining;
import io.sluice.relay.connection.ConnectionState.Forwarding;
import io.sluice.relay.tls.TlsHandshakeWatch;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import javax.net.ssl.SSLPeerUnverifiedException;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.security.cert.Certificate;
import java.security.cert.X509Certificate;
import java.util.List;
import java.util.function.Consumer;

/**
 * One client connection and the upstream connection that serves it, for any front end: the
 * connection's state ({@link ConnectionState}, every transition made here), the upstream connect,
 * both channels' reads ({@link ReadGate}) and writes ({@link OutboundFrames}, flushed once per read
 * batch), the client's decoder paused and woken for the reasons that stop decoding, the handshake
 * deadline, drain, close and fail. What a protocol does with the frames is its
 * {@link ConnectionProtocol}; its gates see this connection only as their {@link Outbound}.
 *
 * <h2>How a front end uses this</h2>
 * <pre>{@code
 * // Once per front end: how its frames are cut, its upstream dialled, its handshake timed.
 * ConnectionSpec spec = new ConnectionSpec("Kafka", "Kafka connection", services, clientTls,
 *         new Framing(FrameRule.INT32_SIZE, maxRequestSize), new Framing(FrameRule.INT32_SIZE, maxResponseSize),
 *         new UpstreamDialer(channelType, connectTimeoutMillis, waterMark, upstreamTls),
 *         new Handshake(timeout, "answer from the broker", ...),
 *         ReadGate.CONNECTING | ReadGate.CONNECTION_LIMIT | ReadGate.QUOTA);
 * ClientPipeline pipeline = new ClientPipeline(spec, relay -> new KafkaConnection(relay, ...));
 * // The port's ChannelInitializer: pipeline.assemble(ch);
 *
 * final class KafkaConnection implements ConnectionProtocol {
 *     KafkaConnection(ProxiedConnection relay, UpstreamRoute route) {
 *         relay.connectAtFirstFrame(route);  // the first request opens the upstream, addresses in turn
 *     }                                      // (Pulsar instead: relay.connect(host, port, onFailure) at CONNECT)
 *     public void opened() { if (!admitted) relay.close(); }           // refuse at accept
 *     public void fromClient(FrameView request) {
 *         if (inFlight.size() >= PAUSE) relay.pauseClient(ReadGate.CONNECTION_LIMIT);
 *         relay.toUpstream(request);    // batched, flushed at the end of the read
 *     }
 *     public void fromUpstream(FrameView response) {
 *         relay.handshakeCompleted();   // the first answer ends the handshake deadline
 *         relay.toClient(response);     // batched, flushed at the end of the read
 *         relay.resumeClient(ReadGate.CONNECTION_LIMIT);
 *     }
 *     public boolean isIdle() { return inFlight.isEmpty(); }             // a draining connection closes
 *     public void closed() { gates.close(); }
 * }
 * }</pre>
 * Frames sent upstream before it is up wait in the state, a few at most
 * ({@link EarlyFrames#MAX}), and go first once it is; a reason in {@link ConnectionSpec#stopDecoding}
 * (a gate holding a request: {@link ReadGate#QUOTA}) stops the client's decoder as well as its
 * socket, and its decoder decodes what it kept when the last such reason is lifted. Once the
 * connection is closed, what a front end sends either way is dropped, and closing, failing,
 * pausing or resuming again do nothing; opening an upstream fails loudly.
 *
 * <p>Both channels run on the client's event loop; so does every method here, and nothing needs
 * a lock.
 */
public final class ProxiedConnection implements Outbound {

    private static final Logger log = LoggerFactory.getLogger(ProxiedConnection.class);
    /** A flood of malformed connections logs a line per reason every ten seconds. */
    private static final RepeatedWarning.PerReason CLOSED_MALFORMED = new RepeatedWarning.PerReason();

    private final Channel client;
    private final SocketAddress clientAddress;
    private final ConnectionSpec spec;
    private final ProxyStats stats;
    /** Bytes queued for the client since the last flush: counted once a flush, not once a frame. */
    private long bytesToClient;

    private final FrameDecoder clientFrames;
    private final HandshakeDeadline deadline;
    private final ReadGate clientReads;
    private final OutboundFrames clientOut;
    private final ConnectionProtocol protocol;
    private final ReadClock clock;
    private ConnectionState state = new Accepted(new EarlyFrames());

    ProxiedConnection(
            Channel client,
            ConnectionSpec spec,
            FrameDecoder clientFrames,
            HandshakeDeadline deadline,
            ConnectionProtocol.Factory protocols) {
        this.client = client;
        this.clientAddress = ClientAddress.of(client);
        this.spec = spec;
        this.stats = spec.services().stats();
        this.clientFrames = clientFrames;
        this.deadline = deadline;
        this.clientReads = new ReadGate(client);
        this.clientOut = new OutboundFrames(client);
        this.clock = new ReadClock(spec.services().quotas().clock());
        // Last: the protocol may use the connection from its constructor on.
        this.protocol = protocols.open(this);
    }

    ConnectionProtocol protocol() {
        return protocol;
    }

    /** Where the connection is in its life. */
    public ConnectionState state() {
        return state;
    }

    /**
     * The client's address, for log lines and throttle records: the source the PROXY
     * protocol header named when {@code --proxy-protocol} read one ({@link ClientAddress}), else
     * the socket's peer.
     */
    public SocketAddress clientAddress() {
        return clientAddress;
    }

    /**
     * The certificate the client presented in its TLS handshake, which chains to
     * {@code --tls-client-ca} (the handshake verified it): the first of its chain. {@code null} on a
     * plaintext port, without a client certificate, or before the handshake is done; once a frame
     * of the client has arrived, the handshake is done. Not for the hot path: it asks the TLS session.
     */
    public X509Certificate clientCertificate() {
        SslHandler tls = client.pipeline().get(SslHandler.class);
        if (tls == null || !tls.handshakeFuture().isSuccess()) {
            return null;
        }
        try {
            Certificate[] chain = tls.engine().getSession().getPeerCertificates();
            return chain.length > 0 && chain[0] instanceof X509Certificate first ? first : null;
        } catch (SSLPeerUnverifiedException none) {
            return null;
        }
    }

    /** The clock for the protocol's gates: one reading per read of either channel ({@link ReadClock}). */
    public ReadClock clock() {
        return clock;
    }

    /** The event loop of both channels, for the protocol's timers. */
    public EventLoop eventLoop() {
        return client.eventLoop();
    }

    @Override
    public ByteBufAllocator alloc() {
        return client.alloc();
    }

    /**
     * Declares, from the protocol's constructor, that the upstream is opened when the first frame
     * goes to it, at the addresses of {@code targets} tried in turn (a failed TLS handshake too),
     * and the connection closed when none is known or none is left; nothing is asked of the
     * protocol meanwhile. A protocol that opens it itself calls {@link #connect} instead.
     *
     * @throws IllegalStateException when an upstream is up or being opened, or declared already, or the connection closed
     */
    public void connectAtFirstFrame(UpstreamTargets targets) {
        if (!(state instanceof Accepted accepted)) {
            throw illegal("declare its upstream");
        }
        state = accepted.awaitingFirstFrame(targets);
    }

    /**
     * Opens the upstream connection to {@code host:port}; the client is not read meanwhile. Frames
     * sent upstream wait until it is up and then go first, in order. When the attempt fails,
     * {@code onFailure} decides: refuse the client (and close), or {@link #connect} to the next
     * address; a connection it does neither with closes.
     *
     * @throws IllegalStateException when an upstream is up or being opened, or the connection closed
     */
    public void connect(String host, int port, Consumer<UpstreamFailure> onFailure) {
        if (!(state instanceof Accepted accepted)) {
            throw illegal("open an upstream connection");
        }
        pauseClient(ReadGate.CONNECTING);
        FrameDecoder upstreamFrames = spec.upstreamFrames().newDecoder();
        UpstreamDialer.Attempt attempt = spec.upstream()
                .dial(
                        client.eventLoop(),
                        spec.services().resolver(),
                        host,
                        port,
                        upstreamFrames,
                        new UpstreamHandler(this, protocol));
        Connecting connecting = accepted.connecting(attempt.channel());
        state = connecting;
        attempt.whenDone(new UpstreamDialer.Outcome() {
            @Override
            public void ready() {
                upstreamReady(connecting, upstreamFrames);
            }

            @Override
            public void failed(Throwable cause, boolean inTlsHandshake) {
                upstreamFailed(connecting, new UpstreamFailure(host, port, cause, inTlsHandshake), onFailure);
            }
        });
    }

    private void upstreamReady(Connecting connecting, FrameDecoder upstreamFrames) {
        if (state instanceof Closed) {
            // The client left while the upstream was being opened.
            connecting.attempt().close();
            return;
        }
        if (state != connecting) {
            throw illegal("take up an upstream connection it did not open");
        }
        Upstream upstream = new Upstream(connecting.attempt(), upstreamFrames);
        state = connecting.forwarding(upstream);
        upstream.channel().flush();
        upstream.reads().followWritability(client);
        resumeClient(ReadGate.CONNECTING);
    }

    private void upstreamFailed(Connecting connecting, UpstreamFailure failure, Consumer<UpstreamFailure> onFailure) {
        connecting.attempt().close();
        if (state instanceof Closed) {
            return;
        }
        if (state != connecting) {
            throw illegal("fail an upstream connection it did not open");
        }
        stats.upstreamConnectFailed();
        spec.services().connectFailures().record();
        state = connecting.failed();
        onFailure.accept(failure);
        if (state instanceof Accepted) {
            // Neither refused nor tried again: nothing else would ever open the upstream.
            close();
        }
    }

    /** Queues {@code frame} for the upstream; takes ownership. Before the upstream is up, the frame waits for it. */
    @Override
    public void toUpstream(ByteBuf frame) {
        ConnectionState now = state;
        if (now instanceof Connected connected) {
            connected.upstream().out().add(frame);
        } else if (now instanceof Connecting connecting) {
            if (!connecting.early().add(frame)) {
                fail(new MalformedFrameException(
                        "early_frames",
                        "client sent more than " + EarlyFrames.MAX + " frames before its upstream connection was up"));
            }
        } else if (now instanceof AwaitingFirstFrame awaiting) {
            if (openAtFirstFrame(awaiting)) {
                toUpstream(frame);
            } else {
                frame.release();
            }
        } else if (now instanceof Accepted) {
            frame.release();
            throw illegal("send a frame upstream without opening the upstream");
        } else {
            frame.release();
        }
    }

    @Override
    public void toUpstream(FrameView frame) {
        ConnectionState now = state;
        if (now instanceof Forwarding forwarding) {
            forwarding.upstream().out().add(frame);
        } else if (now instanceof Draining draining) {
            draining.upstream().out().add(frame);
        } else if (!(now instanceof Closed)) {
            toUpstream(frame.retainedSlice());
        }
    }

    /**
     * The first frame goes to an upstream the protocol declared: opens it to the first of its
     * addresses. False, and the connection closed, when none is known.
     */
    private boolean openAtFirstFrame(AwaitingFirstFrame awaiting) {
        List<InetSocketAddress> addresses = awaiting.targets().addresses();
        state = awaiting.firstFrame();
        if (addresses.isEmpty()) {
            stats.upstreamConnectFailed();
            log.warn(
                    "Closing {} from {}: no address known for {} yet",
                    spec.connections(),
                    clientAddress,
                    awaiting.targets());
            close();
            return false;
        }
        connectInTurn(awaiting.targets(), addresses, 0);
        return true;
    }

    /** Opens the upstream to {@code addresses[attempt]}; when that fails, to the next, and closes when none is left. */
    private void connectInTurn(UpstreamTargets targets, List<InetSocketAddress> addresses, int attempt) {
        InetSocketAddress target = addresses.get(attempt);
        connect(target.getHostString(), target.getPort(), failure -> {
            boolean next = attempt + 1 < addresses.size();
            if (failure.inTlsHandshake()) {
                // Trying the next address may hide a misconfiguration: a certificate one side refuses.
                log.warn(
                        "TLS handshake with {}:{} failed for {} from {}{}: {}",
                        failure.host(),
                        failure.port(),
                        spec.connections(),
                        clientAddress,
                        next ? ", trying the next address" : "",
                        TlsHandshakeWatch.reason(failure.cause()));
            } else if (next) {
                log.debug(
                        "Upstream {}:{} unreachable for {}, trying the next: {}",
                        failure.host(),
                        failure.port(),
                        clientAddress,
                        failure.reason());
            }
            if (next) {
                connectInTurn(targets, addresses, attempt + 1);
                return;
            }
            log.warn(
                    "Closing {} from {}: {} unreachable: {}",
                    spec.connections(),
                    clientAddress,
                    targets,
                    failure.reason());
            close();
        });
    }

    /** Queues {@code frame} for the client; takes ownership. */
    @Override
    public void toClient(ByteBuf frame) {
        if (state instanceof Closed) {
            frame.release();
            return;
        }
        bytesToClient += frame.readableBytes();
        clientOut.add(frame);
    }

    @Override
    public void toClient(FrameView frame) {
        if (state instanceof Closed) {
            return;
        }
        bytesToClient += frame.length();
        clientOut.add(frame);
    }

    /**
     * Writes and flushes what is queued either way: at the end of every read, and after a timer's
     * work. A draining connection then looks again, once the caller is done, whether it is idle: a
     * timer that forwards the last held frame that awaits no answer ({@code acks=0}) is what ends
     * its drain.
     */
    @Override
    public void flush() {
        if (state instanceof Connected connected) {
            connected.upstream().out().flush();
        }
        if (bytesToClient > 0) {
            stats.bytesToClient(bytesToClient);
            bytesToClient = 0;
        }
        clientOut.flush();
        if (state instanceof Draining) {
            client.eventLoop().execute(this::closeIfDrained);
        }
    }

    /**
     * Stops reading the client for {@code reason}, one of {@link ReadGate}'s; a reason in
     * {@link ConnectionSpec#stopDecoding} also stops lending the frames it already sent, so
     * nothing more reaches the protocol until {@link #resumeClient}.
     */
    public void pauseClient(int reason) {
        clientReads.pause(reason);
        if ((reason & spec.stopDecoding()) != 0) {
            clientFrames.pause();
        }
    }

    /**
     * Lifts {@code reason}; reading resumes when no reason is left, and decoding, starting with the
     * frames kept meanwhile, when no reason to stop it is.
     */
    public void resumeClient(int reason) {
        if (!clientReads.isPaused(reason)) {
            return;
        }
        clientReads.resume(reason);
        if (!clientReads.isPaused(spec.stopDecoding()) && !(state instanceof Closed)) {
            clientFrames.resume();
        }
    }

    /**
     * From now on frames of either side may declare up to {@code maxFrameSize}: what the upstream
     * said it takes (a Pulsar broker's max message size, with room for the command).
     *
     * @throws IllegalStateException when the upstream is not up
     */
    public void limitFrames(int maxFrameSize) {
        if (state instanceof Connected connected) {
            clientFrames.maxFrameSize(maxFrameSize);
            connected.upstream().frames().maxFrameSize(maxFrameSize);
        } else if (!(state instanceof Closed)) {
            throw illegal("limit the frames of an upstream that is not up");
        }
    }

    /**
     * From now on the client's frames may declare up to {@code maxFrameSize}, whether or not the
     * upstream is up: a protocol that keeps a client to small frames until it has authenticated
     * lets it send large ones once it has.
     */
    public void limitClientFrames(int maxFrameSize) {
        clientFrames.maxFrameSize(maxFrameSize);
    }

    /** The protocol's handshake is done: the handshake deadline no longer applies. */
    public void handshakeCompleted() {
        deadline.complete();
    }

    /** Closes both sides, after what was already written has been flushed. */
    public void close() {
        if (state instanceof Closed) {
            return;
        }
        // What was forwarded so far goes out before anything written while closing.
        flush();
        ConnectionState was = state;
        state = ConnectionState.CLOSED;
        clientFrames.pause();
        protocol.closed();
        stats.connectionClosed();
        OutboundFrames.closeWhenFlushed(client);
        release(was);
    }

    /** Closes the connection because of {@code cause}: a malformed frame is counted by its reason and logged. */
    public void fail(Throwable cause) {
        if (state instanceof Closed) {
            return;
        }
        if (cause instanceof MalformedFrameException malformed) {
            stats.protocolError(malformed.reason());
            long leftOut = CLOSED_MALFORMED.admit(malformed.reason());
            if (leftOut >= 0) {
                log.warn(
                        "Closing {} from {}: {} ({}){}",
                        spec.connections(),
                        clientAddress,
                        ClientText.of(malformed.getMessage()),
                        malformed.reason(),
                        RepeatedWarning.leftOut(leftOut));
            }
        } else {
            log.debug("Closing {} from {}", spec.connections(), clientAddress, cause);
        }
        close();
    }

    /** The client channel counts as open; the protocol may refuse it at once. */
    void opened() {
        stats.connectionOpened();
        protocol.opened();
    }

    /**
     * Stops taking requests from the client and closes once the protocol is idle. A connection
     * whose upstream is not up has had nothing answered: it closes at once.
     */
    void drain() {
        if (state instanceof Forwarding forwarding) {
            state = forwarding.draining();
            pauseClient(ReadGate.DRAINING);
            closeIfDrained();
        } else if (!(state instanceof Draining)) {
            close();
        }
    }

    /** The client can take more bytes again, or cannot: read from the upstream accordingly. */
    void clientWritabilityChanged() {
        if (state instanceof Connected connected) {
            connected.upstream().reads().followWritability(client);
        }
    }

    /** {@code upstream} can take more bytes again, or cannot: read from the client accordingly. */
    void upstreamWritabilityChanged(Channel upstream) {
        clientReads.followWritability(upstream);
    }

    /** The end of a read from the upstream: what it caused goes out, and a draining connection may be done. */
    void upstreamReadComplete() {
        flush();
        closeIfDrained();
    }

    /** {@code upstream} closed: the connection closes, unless it is an attempt the connection has moved on from. */
    void upstreamClosed(Channel upstream) {
        if (isUpstream(upstream)) {
            close();
        }
    }

    /** {@code upstream} failed: the connection fails, unless it is an attempt the connection has moved on from. */
    void upstreamException(Channel upstream, Throwable cause) {
        if (isUpstream(upstream)) {
            fail(cause);
        }
    }

    private boolean isUpstream(Channel channel) {
        return state instanceof Connected connected && connected.upstream().channel() == channel;
    }

    private void closeIfDrained() {
        if (state instanceof Draining && protocol.isIdle()) {
            close();
        }
    }

    /** Lets go of what the state the connection closed from held. */
    private static void release(ConnectionState was) {
        if (was instanceof Accepted accepted) {
            accepted.early().releaseAll();
        } else if (was instanceof AwaitingFirstFrame awaiting) {
            awaiting.early().releaseAll();
        } else if (was instanceof Connecting connecting) {
            connecting.early().releaseAll();
            connecting.attempt().close();
        } else if (was instanceof Connected connected) {
            connected.upstream().close();
        }
    }

    private IllegalStateException illegal(String what) {
        return new IllegalStateException("connection from " + clientAddress + " cannot " + what + " while "
                + state.getClass().getSimpleName());
    }
}
