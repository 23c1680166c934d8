package io.sluice.pulsar.connection;

import io.netty.buffer.ByteBuf;
import io.sluice.admission.AdmissionDecision;
import io.sluice.admission.RequestType;
import io.sluice.limits.ScopeRef;
import io.sluice.pulsar.codec.FrameCommand;
import io.sluice.pulsar.codec.FrameReader;
import io.sluice.pulsar.codec.FrameWriter;
import io.sluice.pulsar.codec.PulsarFrameRule;
import io.sluice.pulsar.codec.proto.BaseCommand;
import io.sluice.pulsar.codec.proto.CommandConnect;
import io.sluice.pulsar.codec.proto.CommandProducer;
import io.sluice.pulsar.codec.proto.CommandSubscribe;
import io.sluice.pulsar.codec.proto.CommandTopicMigrated.ResourceType;
import io.sluice.pulsar.codec.proto.ServerError;
import io.sluice.pulsar.gates.DispatchGate;
import io.sluice.pulsar.gates.PublishGate;
import io.sluice.pulsar.gates.RequestGate;
import io.sluice.pulsar.gates.ResourceLifecycle;
import io.sluice.pulsar.lookup.BrokerAllowList.BrokerAddress;
import io.sluice.pulsar.lookup.LookupMode;
import io.sluice.pulsar.lookup.LookupRewriter;
import io.sluice.pulsar.scopes.PulsarScopes;
import io.sluice.pulsar.scopes.TopicName;
import io.sluice.relay.ClientText;
import io.sluice.relay.ConnectionBudget;
import io.sluice.relay.FrameView;
import io.sluice.relay.InboundFrames;
import io.sluice.relay.MalformedFrameException;
import io.sluice.relay.ProxyServices;
import io.sluice.relay.ReadGate;
import io.sluice.relay.RepeatedWarning;
import io.sluice.relay.WakeUps;
import io.sluice.relay.accept.IdentityConnectionRate;
import io.sluice.relay.connection.ConnectionProtocol;
import io.sluice.relay.connection.ProxiedConnection;
import io.sluice.relay.connection.UpstreamFailure;
import io.sluice.settings.InvalidSettingsException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import javax.security.auth.x500.X500Principal;
import java.net.InetSocketAddress;
import java.security.cert.X509Certificate;

/**
 * What is Pulsar's in one proxied connection; the relay's {@link ProxiedConnection} runs the rest
 * (states, the upstream connect, reads, writes, back-pressure, drain, close).
 *
 * <p>From the client: CONNECT first, which opens the upstream connection to the broker it names
 * when the allow list lets it (noting whether the client takes throttle notices), or is refused
 * with Sluice's own ERROR; then SEND and FLOW to the gates, new and closed producers and consumers
 * told to them, the receipts of throttle notices consumed, admission control applied to new work,
 * and every other frame forwarded to the broker unchanged.
 *
 * <p>From the broker: CONNECTED gives its max message size to both sides and ends the handshake;
 * receipts and messages go to the gates, which are told of created, refused and closed producers
 * and consumers; lookups are rewritten in {@link LookupMode#REWRITE}; everything else goes to the
 * client unchanged. A draining connection closes once the publish gate has nothing in flight.
 */
final class PulsarConnection implements ConnectionProtocol {

    private static final Logger log = LoggerFactory.getLogger(PulsarConnection.class);
    private static final RepeatedWarning BROKER_NOT_ALLOWED = new RepeatedWarning();
    private static final RepeatedWarning UPSTREAM_UNREACHABLE = new RepeatedWarning();

    /** The request_id of an ERROR about the connection as a whole rather than one request. */
    private static final long CONNECTION_REQUEST_ID = -1L;

    private static final int CONNECT = BaseCommand.Type.CONNECT_VALUE;
    private static final int PRODUCER = BaseCommand.Type.PRODUCER_VALUE;
    private static final int SUBSCRIBE = BaseCommand.Type.SUBSCRIBE_VALUE;
    private static final int CLOSE_PRODUCER = BaseCommand.Type.CLOSE_PRODUCER_VALUE;
    private static final int CLOSE_CONSUMER = BaseCommand.Type.CLOSE_CONSUMER_VALUE;
    private static final int SEND = BaseCommand.Type.SEND_VALUE;
    private static final int FLOW = BaseCommand.Type.FLOW_VALUE;
    private static final int LOOKUP = BaseCommand.Type.LOOKUP_VALUE;
    private static final int THROTTLE_PRODUCER_RECEIPT = BaseCommand.Type.THROTTLE_PRODUCER_RECEIPT_VALUE;
    private static final int CONNECTED = BaseCommand.Type.CONNECTED_VALUE;
    private static final int PRODUCER_SUCCESS = BaseCommand.Type.PRODUCER_SUCCESS_VALUE;
    private static final int SUCCESS = BaseCommand.Type.SUCCESS_VALUE;
    private static final int ERROR = BaseCommand.Type.ERROR_VALUE;
    private static final int TOPIC_MIGRATED = BaseCommand.Type.TOPIC_MIGRATED_VALUE;
    private static final int LOOKUP_RESPONSE = BaseCommand.Type.LOOKUP_RESPONSE_VALUE;
    private static final int SEND_RECEIPT = BaseCommand.Type.SEND_RECEIPT_VALUE;
    private static final int SEND_ERROR = BaseCommand.Type.SEND_ERROR_VALUE;
    private static final int MESSAGE = BaseCommand.Type.MESSAGE_VALUE;

    private final ProxiedConnection relay;
    private final PulsarSettings settings;
    private final ProxyServices services;
    /** The connection's one timer, which its gates' timers share. */
    private final WakeUps timers;

    private final PublishGate publish;
    private final DispatchGate dispatch;
    private final RequestGate requests;
    /** Each direction's frame in hand, its command read once for the connection and the gates. */
    private final FrameCommand clientCommand = new FrameCommand();

    private final FrameCommand upstreamCommand = new FrameCommand();
    private final boolean rewriteLookups;
    private final boolean upstreamTls;
    /** Whether the client's first command, which must be its CONNECT, is still to come. */
    private boolean awaitingConnect = true;
    /** The role the client's CONNECT claims, until the broker's CONNECTED makes it the connection's. */
    private String claimedRole;

    PulsarConnection(ProxiedConnection relay, PulsarSettings settings, ProxyServices services) {
        this.relay = relay;
        this.settings = settings;
        this.services = services;
        this.rewriteLookups = settings.lookupMode() == LookupMode.REWRITE;
        this.upstreamTls = settings.upstreamTls() != null;
        String clientAddress = String.valueOf(relay.clientAddress());
        this.timers = new WakeUps(relay.eventLoop(), services.quotas().clock());
        this.publish = new PublishGate(
                relay,
                relay.clock(),
                timers,
                services,
                clientAddress,
                settings.throttleReceiptWindow(),
                ConnectionBudget.Pause.of(relay::pauseClient, relay::resumeClient, ReadGate.CONNECTION_LIMIT));
        this.dispatch = new DispatchGate(relay, timers, relay.clock(), services, clientAddress);
        this.requests = new RequestGate(
                relay,
                timers,
                relay.clock(),
                services,
                clientAddress,
                relay.clientAddress() instanceof InetSocketAddress inet ? inet.getAddress() : null,
                this::heldRequestDue);
    }

    @Override
    public void fromClient(FrameView frame) {
        int type = FrameReader.read(frame, clientCommand).type();
        if (awaitingConnect) {
            if (type != CONNECT) {
                throw new MalformedFrameException("no_connect", "first command was type " + type + ", not CONNECT");
            }
            awaitingConnect = false;
            connect(frame);
            return;
        }
        switch (type) {
            case SEND -> {
                publish.send(frame, clientCommand);
                return;
            }
            case FLOW -> {
                dispatch.flow(frame);
                return;
            }
            case THROTTLE_PRODUCER_RECEIPT -> {
                // Sluice's own extension: the broker does not know the command.
                publish.notices().receipt(clientCommand);
                return;
            }
            case CONNECT -> throw new MalformedFrameException("repeated_connect", "second CONNECT on one connection");
            default -> {}
        }
        if (RequestGate.counts(type) && !requests.admit(frame, type)) {
            return;
        }
        forward(frame, type);
    }

    /**
     * A request the request gate held is due ({@link RequestGate}): it goes on as one admitted at
     * once would. Takes ownership of {@code frame}.
     */
    private void heldRequestDue(ByteBuf frame) {
        try {
            FrameView view = FrameView.of(frame);
            forward(view, FrameReader.type(view));
        } finally {
            frame.release();
        }
    }

    /** Admission control and the gates' tracking for {@code frame}, of BaseCommand type {@code type}; then on to the broker. */
    private void forward(FrameView frame, int type) {
        switch (type) {
            case LOOKUP -> {
                if (!admitLookup(frame)) {
                    return;
                }
            }
            case PRODUCER, SUBSCRIBE, CLOSE_PRODUCER, CLOSE_CONSUMER -> {
                if (!trackFromClient(frame)) {
                    return;
                }
            }
            default -> {}
        }
        relay.toUpstream(frame);
    }

    /** Admission control for a lookup: false (and the client answered) when refused. */
    private boolean admitLookup(FrameView frame) {
        AdmissionDecision decision = services.admission().admit(RequestType.METADATA);
        if (decision.admitted()) {
            return true;
        }
        long requestId = FrameReader.parse(frame).getLookupTopic().getRequestId();
        relay.toClient(FrameWriter.lookupFailed(
                relay.alloc(), requestId, ServerError.ServiceNotReady, decision.rejectMessage()));
        return false;
    }

    /** The CONNECT itself is forwarded untouched: the broker ignores a feature flag it does not know. */
    private void connect(FrameView frame) {
        AdmissionDecision admission = services.admission().admit(RequestType.NEW_CONNECTION);
        if (!admission.admitted()) {
            refuse(ServerError.ServiceNotReady, admission.rejectMessage());
            return;
        }
        CommandConnect connect = FrameReader.parse(frame).getConnect();
        publish.notices().clientSupportsNotices(connect.getFeatureFlags().getSupportsThrottleProducerCommands());
        claimedRole = ConnectRole.claimed(connect, settings.roleClaim(), this::clientCertificateSubject);
        openUpstream(frame, connect.hasProxyToBrokerUrl() ? connect.getProxyToBrokerUrl() : null);
    }

    /** The subject of the client certificate the TLS handshake verified, or {@code null}. */
    private X500Principal clientCertificateSubject() {
        X509Certificate certificate = relay.clientCertificate();
        return certificate == null ? null : certificate.getSubjectX500Principal();
    }

    /**
     * Tells the gates of a client command, after admission control for new producers and
     * consumers. Returns whether the caller should forward the frame; when not, the client has
     * its answer.
     */
    private boolean trackFromClient(FrameView frame) {
        BaseCommand command = FrameReader.parse(frame);
        switch (command.getType()) {
            case PRODUCER -> {
                CommandProducer producer = command.getProducer();
                long id = producer.getProducerId();
                return requested(producer.getRequestId(), id, producer.getTopic(), RequestType.NEW_PRODUCER);
            }
            case SUBSCRIBE -> {
                CommandSubscribe subscribe = command.getSubscribe();
                long id = subscribe.getConsumerId();
                return requested(subscribe.getRequestId(), id, subscribe.getTopic(), RequestType.NEW_CONSUMER);
            }
            case CLOSE_PRODUCER ->
                publish.producers().closed(command.getCloseProducer().getProducerId());
            case CLOSE_CONSUMER ->
                dispatch.consumers().closed(command.getCloseConsumer().getConsumerId());
            default -> {}
        }
        return true;
    }

    /**
     * The client's request {@code requestId} to create producer or consumer {@code id} (as
     * {@code type} says) on topic {@code named}: refused with Sluice's own ERROR for a topic name the
     * broker would refuse, a request Sluice could not tell from another, past the most Sluice keeps
     * for one connection, or by admission control; else told to its gate. Whether to forward it.
     */
    private boolean requested(long requestId, long id, String named, RequestType type) {
        boolean producer = type == RequestType.NEW_PRODUCER;
        ResourceLifecycle<?> resources = producer ? publish.producers() : dispatch.consumers();
        String kind = producer ? "producer" : "consumer";
        String topic = resolved(requestId, named);
        if (topic == null
                || refusedAsAmbiguous(requestId, kind, id, resources.isPending(id))
                || refusedAsTooMany(requestId, kind + "s", resources.isFull())
                || !admit(type, requestId)) {
            return false;
        }
        resources.requested(requestId, id, topic);
        return true;
    }

    /** Refuses, with Sluice's own ERROR, a new producer or consumer past the most Sluice keeps for one connection; true when refused. */
    private boolean refusedAsTooMany(long requestId, String what, boolean full) {
        if (!full) {
            return false;
        }
        relay.toClient(FrameWriter.error(
                relay.alloc(),
                requestId,
                ServerError.NotAllowedError,
                "Sluice: this connection has as many " + what + " as Sluice keeps for one connection; open another"));
        return true;
    }

    /**
     * The full name of the topic a PRODUCER or SUBSCRIBE names, as the broker reads it (a short name
     * is metered as the topic it stands for); null, and the client answered with Sluice's own
     * ERROR, for a name the broker would refuse or Sluice cannot meter.
     */
    private String resolved(long requestId, String topic) {
        try {
            return TopicName.resolve(topic).toString();
        } catch (InvalidSettingsException notATopic) {
            services.stats().protocolError("invalid_topic_name");
            relay.toClient(FrameWriter.error(
                    relay.alloc(),
                    requestId,
                    ServerError.InvalidTopicName,
                    "Sluice refused topic name \"" + topic + "\": it must be persistent://tenant/namespace/topic, "
                            + "non-persistent://tenant/namespace/topic, tenant/namespace/topic or topic"));
            return null;
        }
    }

    /**
     * Refuses, with Sluice's own ERROR, a PRODUCER or SUBSCRIBE whose answer Sluice could not tell
     * from another's: its request id is that of a PRODUCER or SUBSCRIBE still waiting for its answer,
     * or its id is still being created (the broker refuses that one too, and keeps the first).
     * Forwarded, either could leave an id the broker has untracked. True when refused.
     */
    private boolean refusedAsAmbiguous(long requestId, String kind, long id, boolean idPending) {
        String reason;
        if (publish.producers().isRequestPending(requestId)
                || dispatch.consumers().isRequestPending(requestId)) {
            reason = "request id " + requestId + " is already waiting for an answer";
        } else if (idPending) {
            reason = kind + " " + id + " is already being created";
        } else {
            return false;
        }
        services.stats().protocolError("ambiguous_request");
        relay.toClient(FrameWriter.error(
                relay.alloc(), requestId, ServerError.ServiceNotReady, "Sluice refused the request: " + reason));
        return true;
    }

    /** Admission control for a new producer or consumer; a refusal answers ServiceNotReady, which clients retry. */
    private boolean admit(RequestType type, long requestId) {
        AdmissionDecision decision = services.admission().admit(type);
        if (decision.admitted()) {
            return true;
        }
        relay.toClient(
                FrameWriter.error(relay.alloc(), requestId, ServerError.ServiceNotReady, decision.rejectMessage()));
        return false;
    }

    /**
     * Opens the upstream connection for a client's CONNECT and forwards the lent CONNECT frame as
     * it came, auth data included, first of all once the upstream is up.
     */
    private void openUpstream(FrameView connectFrame, String proxyToBrokerUrl) {
        BrokerAddress target = settings.upstream();
        if (proxyToBrokerUrl != null && !proxyToBrokerUrl.isEmpty()) {
            target = settings.allowedBrokers().resolve(proxyToBrokerUrl);
            if (target == null) {
                long leftOut = BROKER_NOT_ALLOWED.admit();
                if (leftOut >= 0) {
                    log.warn(
                            "Refusing {}: proxy_to_broker_url \"{}\" is not allowed by --allowed-brokers '{}'{}",
                            relay.clientAddress(),
                            ClientText.of(proxyToBrokerUrl),
                            settings.allowedBrokers(),
                            RepeatedWarning.leftOut(leftOut));
                }
                services.stats().protocolError("broker_not_allowed");
                refuse(
                        ServerError.AuthorizationError,
                        "Sluice does not proxy to " + proxyToBrokerUrl + ": not in its allowed brokers");
                return;
            }
        }
        BrokerAddress address = target;
        relay.connect(address.host(), address.port(), failure -> unreachable(address, failure));
        relay.toUpstream(connectFrame);
    }

    /** The upstream connection failed: tells the client it is Sluice that cannot reach the broker. */
    private void unreachable(BrokerAddress address, UpstreamFailure failure) {
        long leftOut = UPSTREAM_UNREACHABLE.admit();
        if (leftOut >= 0) {
            log.warn(
                    "Upstream {} unreachable for {}: {}{}",
                    ClientText.of(address.toString()),
                    relay.clientAddress(),
                    failure.reason(),
                    RepeatedWarning.leftOut(leftOut));
        }
        refuse(ServerError.ServiceNotReady, "Sluice cannot reach broker " + address + ": " + failure.message());
    }

    /** Answers the client's CONNECT with an error and closes. */
    private void refuse(ServerError error, String message) {
        relay.toClient(FrameWriter.error(relay.alloc(), CONNECTION_REQUEST_ID, error, message));
        relay.close();
    }

    @Override
    public void fromUpstream(FrameView frame) {
        int type = FrameReader.read(frame, upstreamCommand).type();
        if (type == SEND_RECEIPT || type == SEND_ERROR) {
            publish.answer(frame, upstreamCommand);
            return;
        }
        switch (type) {
            case MESSAGE -> dispatch.message(frame, upstreamCommand);
            case CONNECTED -> {
                if (!connected(FrameReader.parse(frame).getConnected().getMaxMessageSize())) {
                    return;
                }
            }
            case PRODUCER_SUCCESS, SUCCESS, ERROR, CLOSE_PRODUCER, CLOSE_CONSUMER, TOPIC_MIGRATED ->
                trackFromBroker(FrameReader.parse(frame));
            case LOOKUP_RESPONSE -> {
                if (rewriteLookups) {
                    ByteBuf rewritten = InboundFrames.readOrRelease(
                            frame.retainedSlice(),
                            lookup -> LookupRewriter.rewrite(relay.alloc(), lookup, upstreamTls));
                    relay.toClient(rewritten);
                    return;
                }
            }
            default -> {}
        }
        relay.toClient(frame);
    }

    private void trackFromBroker(BaseCommand command) {
        switch (command.getType()) {
            case PRODUCER_SUCCESS ->
                publish.producers().succeeded(command.getProducerSuccess().getRequestId());
            case SUCCESS -> dispatch.consumers().succeeded(command.getSuccess().getRequestId());
            case ERROR -> {
                publish.producers().failed(command.getError().getRequestId());
                dispatch.consumers().failed(command.getError().getRequestId());
            }
            case CLOSE_PRODUCER ->
                publish.producers().closed(command.getCloseProducer().getProducerId());
            case CLOSE_CONSUMER ->
                dispatch.consumers().closed(command.getCloseConsumer().getConsumerId());
            case TOPIC_MIGRATED -> {
                if (command.getTopicMigrated().getResourceType() == ResourceType.Producer) {
                    publish.producers().closed(command.getTopicMigrated().getResourceId());
                } else {
                    dispatch.consumers().closed(command.getTopicMigrated().getResourceId());
                }
            }
            default -> {}
        }
    }

    /**
     * The broker's CONNECTED is on its way to the client: its max message size (or the default,
     * when it tells none) applies to both sides from now, lifting the client's 64 KiB before
     * CONNECTED, the role the CONNECT claimed is the connection's (the broker accepted it), and the
     * handshake is done. A connection over its role's rate of new connections is closed instead,
     * the CONNECTED not passed on; whether it may go on.
     */
    private boolean connected(int maxMessageSize) {
        relay.limitFrames(
                maxMessageSize > 0
                        ? PulsarFrameRule.maxFrameSize(maxMessageSize)
                        : PulsarFrameRule.DEFAULT_MAX_FRAME_SIZE);
        if (claimedRole != null) {
            String role = claimedRole;
            claimedRole = null;
            publish.producers().authenticated(role);
            dispatch.consumers().authenticated(role);
            requests.authenticated(role);
            if (!IdentityConnectionRate.admit(
                    services.quotas(),
                    services.stats(),
                    new ScopeRef(PulsarScopes.ROLE, role),
                    relay.clientAddress(),
                    "Pulsar connection")) {
                relay.close();
                return false;
            }
        }
        relay.handshakeCompleted();
        return true;
    }

    @Override
    public boolean isIdle() {
        return publish.isIdle() && requests.isIdle();
    }

    @Override
    public void closed() {
        publish.close();
        dispatch.close();
        requests.close();
        timers.close();
    }
}
