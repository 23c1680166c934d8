package io.sluice.kafka.connection;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.sluice.admission.AdmissionDecision;
import io.sluice.admission.RequestType;
import io.sluice.kafka.codec.ApiVersionsResponseRewriter;
import io.sluice.kafka.codec.GroupRequests;
import io.sluice.kafka.codec.InFlightRequests;
import io.sluice.kafka.codec.MetadataRefusal;
import io.sluice.kafka.codec.NewWorkRefusal;
import io.sluice.kafka.codec.RequestHeader;
import io.sluice.kafka.gates.Exchange;
import io.sluice.kafka.gates.GateVerdict;
import io.sluice.kafka.gates.KafkaGates;
import io.sluice.kafka.gates.KafkaOutbound;
import io.sluice.kafka.gates.MutationGate;
import io.sluice.kafka.gates.RequestRateGate;
import io.sluice.kafka.scopes.KafkaNames;
import io.sluice.kafka.scopes.KafkaScopes;
import io.sluice.kafka.scopes.SslPrincipalMapping;
import io.sluice.limits.ScopeRef;
import io.sluice.relay.FrameView;
import io.sluice.relay.MalformedFrameException;
import io.sluice.relay.ProxyServices;
import io.sluice.relay.ReadGate;
import io.sluice.relay.accept.IdentityConnectionRate;
import io.sluice.relay.connection.ConnectionProtocol;
import io.sluice.relay.connection.ProxiedConnection;
import org.apache.kafka.common.protocol.ApiKeys;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.net.InetSocketAddress;
import java.security.cert.X509Certificate;

/**
 * What is Kafka's in one proxied connection; the relay's {@link ProxiedConnection} runs the rest
 * (states, the upstream connect, reads, writes, back-pressure, the handshake deadline, drain, close).
 *
 * <p>From the client, each request lent for the call: its header read in place (an unknown API or a
 * version Sluice does not handle closes the connection); admission control for new connections and
 * Metadata requests, refused as a broker would; an ApiVersions request newer than Sluice handles
 * answered as a broker answers it; Produce and Fetch to the connection's quota gates
 * ({@link KafkaGates}), each of which returns a {@link GateVerdict} (forward, cut or whole,
 * awaiting a response or with {@code acks=0} not; answer; hold) that this class alone carries out
 * ({@link #act}), those a gate reaches later from its timers included; SaslHandshake and
 * SaslAuthenticate read on their way ({@link SaslAuthentication}), so that the gates charge the
 * principal the broker accepts (before that, the principal of the client certificate on a port with
 * {@code --tls-client-ca}, mapped by {@link SslPrincipalMapping}); every other request
 * forwarded as the very bytes that came. Requests that start new producers or consumers
 * (InitProducerId, FindCoordinator, JoinGroup) pass admission control too, and are refused with
 * Sluice's retriable answer ({@link NewWorkRefusal}); JoinGroup and OffsetCommit go through their
 * group's gate ({@link io.sluice.kafka.gates.GroupGate}), which may hold or refuse them. Every
 * request but ApiVersions, SASL, Produce, Fetch and ShareFetch is charged to its rate of requests
 * ({@link RequestRateGate}); over it, its response carries a throttle time and the connection
 * waits it out. CreateTopics, CreatePartitions and DeleteTopics go through the rate of topic
 * mutations ({@link MutationGate}), which may refuse some or all of their topics. The connection
 * declares at its construction that the first request forwarded opens the upstream connection, to
 * the port's route ({@link UpstreamRoute}): the relay tries its addresses in turn, past a failed TLS
 * handshake too ({@link ProxiedConnection#connectAtFirstFrame}).
 *
 * <p>Answers go back in request order, as Kafka clients need ({@link ResponseOrder}): a request
 * Sluice answers itself takes its place in that order, and the broker's response to a gated request
 * passes through the gate's {@link Exchange} before it is rewritten for the client. The first
 * response ends the handshake deadline. Past {@link #PAUSE_IN_FLIGHT} unanswered requests the
 * client is not decoded until half are answered; a draining connection closes once none awaits its
 * answer.
 */
final class KafkaConnection implements ConnectionProtocol, KafkaOutbound {

    private static final Logger log = LoggerFactory.getLogger(KafkaConnection.class);

    /** Room for far more requests than a client pipelines (a Java client: 5 per connection). */
    static final int IN_FLIGHT_CAPACITY = InFlightRequests.DEFAULT_CAPACITY;
    /** Past this many unanswered requests the client is not read until half are answered. */
    static final int PAUSE_IN_FLIGHT = IN_FLIGHT_CAPACITY / 2;

    /** The largest request frame before authentication, whatever the brokers take later. */
    static final int MAX_REQUEST_BEFORE_AUTHENTICATION = 1 << 20;

    private static final short PRODUCE = ApiKeys.PRODUCE.id;
    private static final short FETCH = ApiKeys.FETCH.id;
    private static final short SHARE_FETCH = ApiKeys.SHARE_FETCH.id;
    private static final short METADATA = ApiKeys.METADATA.id;
    private static final short SASL_HANDSHAKE = ApiKeys.SASL_HANDSHAKE.id;
    private static final short SASL_AUTHENTICATE = ApiKeys.SASL_AUTHENTICATE.id;

    private final ProxiedConnection relay;
    private final ProxyServices services;
    private final ResponseOrder responses;
    private final KafkaGates gates;
    private final SaslAuthentication authentication;
    private final RequestHeader header = new RequestHeader();
    private final int maxRequestSize;
    private final SslPrincipalMapping principalMapping;
    /** Whether the client's certificate, if it presented one, has been read: at its first request. */
    private boolean certificateRead;
    /**
     * The throttle time of the request in hand, over its rate of requests ({@link
     * io.sluice.kafka.gates.RequestRateGate}): its response, when forwarded, carries it. 0 for none.
     */
    private int throttleMillis;
    /** Its frames are kept small: before its first request, and from a SaslHandshake until the first request past SASL. */
    private boolean smallFrames = true;
    /** Whether it has been charged to its client id's rate of new connections: at its first request. */
    private boolean clientIdCharged;
    /** The principal it was charged to the rate of new connections of, or {@code null}: re-authenticating as the same one is no new connection. */
    private String chargedPrincipal;

    KafkaConnection(ProxiedConnection relay, KafkaSettings settings, ProxyServices services, UpstreamRoute route) {
        this.relay = relay;
        this.services = services;
        this.maxRequestSize = settings.maxRequestSize();
        this.principalMapping = settings.principalMapping();
        this.responses =
                new ResponseOrder(relay, settings.newRewriter(), services.upstreamLatency(), IN_FLIGHT_CAPACITY);
        this.gates = new KafkaGates(
                this,
                relay.eventLoop(),
                services,
                settings.topicIdLookup(),
                settings.maxTopicsPerConnection(),
                String.valueOf(relay.clientAddress()),
                relay.clientAddress() instanceof InetSocketAddress inet ? inet.getAddress() : null);
        this.authentication = new SaslAuthentication(this::authenticated);
        relay.connectAtFirstFrame(route);
    }

    /**
     * Keeps the client to small frames where a stock client sends only small ones: its first
     * request (ApiVersions), and its SASL exchange, from SaslHandshake until the first request past
     * it (a broker with SASL answers nothing else before). Any other request may be as large as
     * the brokers take, the first Produce on a plaintext connection included.
     */
    private void limitFrames(short apiKey) {
        if (apiKey == SASL_HANDSHAKE) {
            smallFrames = true;
            relay.limitClientFrames(maxRequestBeforeAuthentication(maxRequestSize));
        } else if (smallFrames && apiKey != SASL_AUTHENTICATE) {
            smallFrames = false;
            relay.limitClientFrames(maxRequestSize);
        }
    }

    @Override
    public void opened() {
        AdmissionDecision admission = services.admission().admit(RequestType.NEW_CONNECTION);
        if (!admission.admitted()) {
            // A broker over its connection quota closes a new connection too; the client retries.
            log.debug("Refusing Kafka connection from {}: {}", relay.clientAddress(), admission.rejectMessage());
            relay.close();
        }
    }

    /**
     * The largest request a client may send before it has authenticated: 1 MiB, or less when the
     * brokers take less. ApiVersions and SASL requests are far smaller; a client that announces a
     * larger frame first is closed before a byte of it is buffered (docs/KAFKA.md, "Bounds").
     */
    static int maxRequestBeforeAuthentication(int maxRequestSize) {
        return Math.min(MAX_REQUEST_BEFORE_AUTHENTICATION, maxRequestSize);
    }

    /**
     * The principal of the certificate the client presented on a port with {@code --tls-client-ca},
     * which the TLS handshake verified, as Kafka's SSL listener names it; a SASL exchange that the
     * broker accepts later names another, as on Kafka's SASL_SSL listener.
     */
    private boolean readCertificate() {
        certificateRead = true;
        X509Certificate certificate = relay.clientCertificate();
        if (certificate == null) {
            return true;
        }
        String principal = principalMapping.principalOf(certificate.getSubjectX500Principal());
        log.debug("Kafka connection from {} presented a client certificate: {}", relay.clientAddress(), principal);
        return authenticated(principal);
    }

    /**
     * The broker accepted the connection's authentication (or Sluice's TLS handshake verified its
     * certificate) as {@code principal}: its gates charge the principal from now on, and the
     * connection is charged to the principal's rate of new connections. Whether it may go on; when
     * not, it is closing.
     */
    private boolean authenticated(String principal) {
        gates.authenticated(principal);
        if (principal.equals(chargedPrincipal)) {
            return true;
        }
        chargedPrincipal = principal;
        return admitConnectionOf(new ScopeRef(KafkaScopes.PRINCIPAL, principal));
    }

    /**
     * Charges the connection to {@code identity}'s rate of new connections (docs/REFERENCE.md,
     * "Limits by identity"); over it, closes the connection. Whether it may go on.
     */
    private boolean admitConnectionOf(ScopeRef identity) {
        if (IdentityConnectionRate.admit(
                services.quotas(), services.stats(), identity, relay.clientAddress(), "Kafka connection")) {
            return true;
        }
        relay.close();
        return false;
    }

    /**
     * At the connection's first request, whose header {@link #header} just read from {@code
     * frame}: charges it to its client id's rate of new connections (a client id as it is charged,
     * bounded). Whether it may go on.
     */
    private boolean chargeClientId(FrameView frame) {
        clientIdCharged = true;
        String clientId = KafkaNames.chargedClientId(header.clientId(frame));
        return clientId == null || admitConnectionOf(new ScopeRef(KafkaScopes.CLIENT, clientId));
    }

    @Override
    public void fromClient(FrameView frame) {
        if (!certificateRead && !readCertificate()) {
            return;
        }
        if (authentication.rawTokens()) {
            authentication.rawFromClient(frame);
            relay.toUpstream(frame);
            return;
        }
        header.read(frame);
        if (!clientIdCharged && !chargeClientId(frame)) {
            return;
        }
        services.stats().request(header.apiKey());
        limitFrames(header.apiKey());
        if (header.isNewerApiVersions()) {
            answer(header, ApiVersionsResponseRewriter.unsupportedVersion(relay.alloc(), header.correlationId()));
            return;
        }
        short apiKey = header.apiKey();
        throttleMillis = RequestRateGate.counts(apiKey) ? gates.requests().request(frame, header) : 0;
        try {
            dispatch(frame, apiKey);
        } finally {
            throttleMillis = 0;
        }
    }

    /** Sends the request in hand to its gate, or on to the broker. */
    private void dispatch(FrameView frame, short apiKey) {
        if (apiKey == PRODUCE) {
            act(gates.produce().request(frame, header), frame, header);
        } else if (apiKey == FETCH) {
            act(gates.fetch().request(frame, header), frame, header);
        } else if (apiKey == SHARE_FETCH) {
            act(gates.shareFetch().request(frame, header), frame, header);
        } else if (apiKey == METADATA) {
            metadata(frame);
        } else if (apiKey == SASL_HANDSHAKE) {
            forward(frame, header, authentication.handshake(frame, header));
        } else if (apiKey == SASL_AUTHENTICATE) {
            forward(frame, header, authentication.authenticate(frame, header));
        } else if (NewWorkRefusal.startsNewWork(apiKey)) {
            newWork(frame);
        } else if (GroupRequests.isGroupRequest(apiKey)) {
            act(gates.groups().request(frame, header), frame, header);
        } else if (MutationGate.handles(apiKey)) {
            act(gates.mutations().request(frame, header), frame, header);
        } else {
            forward(frame, header, null);
        }
    }

    /** Admission control for a Metadata request: forwarded when admitted, else refused as a starting broker would. */
    private void metadata(FrameView frame) {
        AdmissionDecision decision = services.admission().admit(RequestType.METADATA);
        if (decision.admitted()) {
            forward(frame, header, null);
            return;
        }
        log.debug("Refusing a Metadata request from {}: {}", relay.clientAddress(), decision.rejectMessage());
        answer(header, MetadataRefusal.noBrokers(relay.alloc(), header));
    }

    /**
     * Admission control for a request that starts a producer (InitProducerId, a transaction's
     * FindCoordinator) or a consumer (a group's FindCoordinator, JoinGroup): forwarded when admitted
     * (a JoinGroup through its group's gate), else answered with Sluice's retriable refusal, from
     * which the client backs off and retries.
     */
    private void newWork(FrameView frame) {
        RequestType type =
                NewWorkRefusal.startsProducer(frame, header) ? RequestType.NEW_PRODUCER : RequestType.NEW_CONSUMER;
        AdmissionDecision decision = services.admission().admit(type);
        if (decision.admitted() && GroupRequests.isGroupRequest(header.apiKey())) {
            act(gates.groups().request(frame, header), frame, header);
            return;
        }
        if (decision.admitted()) {
            forward(frame, header, null);
            return;
        }
        log.debug(
                "Refusing {} from {}: {}",
                ApiKeys.forId(header.apiKey()).name,
                relay.clientAddress(),
                decision.rejectMessage());
        answer(header, NewWorkRefusal.answer(relay.alloc(), frame, header, decision.rejectMessage()));
    }

    /**
     * The one place a gate's verdict is carried out: forwarded (awaiting its response in its turn, or
     * with {@code acks=0} not), answered by Sluice in its turn, or left to the gate that holds it.
     */
    @Override
    public void act(GateVerdict verdict, FrameView lent, RequestHeader header) {
        ByteBuf own = verdict.takeFrame();
        ByteBuf answer = verdict.takeAnswer();
        switch (verdict.kind()) {
            case FORWARD -> {
                if (verdict.awaitsResponse()) {
                    if (own == null) {
                        forward(lent, header, verdict.exchange());
                    } else {
                        forward(own, header, verdict.exchange());
                    }
                } else if (own == null) {
                    relay.toUpstream(lent);
                } else {
                    relay.toUpstream(own);
                }
            }
            case ANSWER -> answer(header, answer);
            case HOLD -> {
                // The gate keeps it, and has stopped the requests behind it where it must.
            }
        }
    }

    @Override
    public void flush() {
        relay.flush();
    }

    @Override
    public ByteBufAllocator alloc() {
        return relay.alloc();
    }

    /** Forwards the lent {@code frame}, which stays its lender's; its response goes through {@code exchange}. */
    private void forward(FrameView frame, RequestHeader header, Exchange exchange) {
        awaitResponse(header, exchange);
        relay.toUpstream(frame);
    }

    /** Forwards {@code frame}, taking ownership; its response goes through {@code exchange}. */
    private void forward(ByteBuf frame, RequestHeader header, Exchange exchange) {
        try {
            awaitResponse(header, exchange);
        } catch (MalformedFrameException e) {
            frame.release();
            throw e;
        }
        relay.toUpstream(frame);
    }

    /** Answers a request with Sluice's own {@code answer}, in its turn; takes ownership of {@code answer}. */
    private void answer(RequestHeader header, ByteBuf answer) {
        responses.answer(header, answer);
        pauseIfTooManyInFlight();
    }

    private void awaitResponse(RequestHeader header, Exchange exchange) {
        if (throttleMillis > 0) {
            exchange = gates.requests().throttledResponse(exchange, throttleMillis);
            throttleMillis = 0;
        }
        responses.forwarded(header, exchange);
        pauseIfTooManyInFlight();
    }

    private void pauseIfTooManyInFlight() {
        if (responses.size() >= PAUSE_IN_FLIGHT) {
            relay.pauseClient(ReadGate.CONNECTION_LIMIT);
        }
    }

    /**
     * A lent response from the broker, which stays the broker decoder's: goes to the client in its
     * request's turn ({@link ResponseOrder#response}), after which the client may send more.
     */
    @Override
    public void fromUpstream(FrameView frame) {
        if (authentication.rawTokens()) {
            // A raw SASL token (SaslHandshake v0): no Kafka header, no request in flight it answers.
            relay.toClient(frame);
            authentication.rawFromBroker(frame);
            return;
        }
        responses.response(frame);
        relay.handshakeCompleted();
        if (responses.size() <= PAUSE_IN_FLIGHT / 2) {
            relay.resumeClient(ReadGate.CONNECTION_LIMIT);
        }
    }

    @Override
    public void pauseRequests() {
        relay.pauseClient(ReadGate.QUOTA);
    }

    @Override
    public void resumeRequests() {
        relay.resumeClient(ReadGate.QUOTA);
    }

    /**
     * A draining connection closes once every request in flight is answered and every held
     * {@code acks=0} batch forwarded, which the produce gate's timers do at the quota's rate.
     */
    @Override
    public boolean isIdle() {
        return responses.isEmpty() && gates.produce().isIdle() && gates.groups().isIdle();
    }

    /** Sluice's answers still waiting are released, the exchanges abandoned, and the gates let go. */
    @Override
    public void closed() {
        responses.close();
        gates.close();
    }
}
