package io.sluice.pulsar.connection;

import io.sluice.admission.AdmissionDecision;
import io.sluice.admission.RequestType;
import io.sluice.pulsar.codec.FrameReader;
import io.sluice.pulsar.codec.FrameWriter;
import io.sluice.pulsar.codec.proto.BaseCommand;
import io.sluice.pulsar.codec.proto.CommandConnect;
import io.sluice.pulsar.codec.proto.ServerError;
import io.sluice.relay.FrameView;
import io.sluice.relay.MalformedFrameException;
import io.sluice.relay.ProxyServices;
import io.sluice.relay.connection.ConnectionState;

/**
 * Commands from the client: CONNECT first (it opens the upstream connection, noting whether the
 * client takes throttle notices), then SEND and FLOW to the gates, new and closed producers and
 * consumers told to them, the receipts of throttle notices consumed, admission control applied to
 * new work, and every other frame forwarded to the broker unchanged.
 */
final class ClientCommands {

    private static final int CONNECT = BaseCommand.Type.CONNECT_VALUE;
    private static final int PRODUCER = BaseCommand.Type.PRODUCER_VALUE;
    private static final int SUBSCRIBE = BaseCommand.Type.SUBSCRIBE_VALUE;
    private static final int CLOSE_PRODUCER = BaseCommand.Type.CLOSE_PRODUCER_VALUE;
    private static final int CLOSE_CONSUMER = BaseCommand.Type.CLOSE_CONSUMER_VALUE;
    private static final int SEND = BaseCommand.Type.SEND_VALUE;
    private static final int FLOW = BaseCommand.Type.FLOW_VALUE;
    private static final int LOOKUP = BaseCommand.Type.LOOKUP_VALUE;
    private static final int THROTTLE_PRODUCER_RECEIPT = BaseCommand.Type.THROTTLE_PRODUCER_RECEIPT_VALUE;

    private final PulsarConnection connection;
    private final ProxyServices services;

    ClientCommands(PulsarConnection connection) {
        this.connection = connection;
        this.services = connection.services;
    }

    /** A frame from the client, lent. */
    void read(FrameView frame) {
        int type = FrameReader.type(frame);
        if (connection.relay.state() instanceof ConnectionState.Accepted) {
            if (type != CONNECT) {
                throw new MalformedFrameException("no_connect", "first command was type " + type + ", not CONNECT");
            }
            connect(frame);
            return;
        }
        switch (type) {
            case SEND -> {
                connection.publish.send(frame);
                return;
            }
            case FLOW -> {
                connection.dispatch.flow(frame);
                return;
            }
            case THROTTLE_PRODUCER_RECEIPT -> {
                // Sluice's own extension: the broker does not know the command.
                connection.publish.notices().receipt(frame);
                return;
            }
            case CONNECT -> throw new MalformedFrameException("repeated_connect", "second CONNECT on one connection");
            case LOOKUP -> {
                if (!admitLookup(frame)) {
                    return;
                }
            }
            case PRODUCER, SUBSCRIBE, CLOSE_PRODUCER, CLOSE_CONSUMER -> {
                if (!track(frame)) {
                    return;
                }
            }
            default -> {}
        }
        connection.relay.toUpstream(frame);
    }

    /** Admission control for a lookup: false (and the client answered) when refused. */
    private boolean admitLookup(FrameView frame) {
        AdmissionDecision decision = services.admission().admit(RequestType.METADATA);
        if (decision.admitted()) {
            return true;
        }
        long requestId = FrameReader.parse(frame).getLookupTopic().getRequestId();
        connection.relay.toClient(FrameWriter.lookupFailed(
                connection.relay.alloc(), requestId, ServerError.ServiceNotReady, decision.rejectMessage()));
        return false;
    }

    /** The CONNECT itself is forwarded untouched: the broker ignores a feature flag it does not know. */
    private void connect(FrameView frame) {
        AdmissionDecision admission = services.admission().admit(RequestType.NEW_CONNECTION);
        if (!admission.admitted()) {
            connection.refuse(ServerError.ServiceNotReady, admission.rejectMessage());
            return;
        }
        CommandConnect connect = FrameReader.parse(frame).getConnect();
        connection
                .publish
                .notices()
                .clientSupportsNotices(connect.getFeatureFlags().getSupportsThrottleProducerCommands());
        connection.connect(frame, connect.hasProxyToBrokerUrl() ? connect.getProxyToBrokerUrl() : null);
    }

    /**
     * Tells the gates of a client command, after admission control for new producers and
     * consumers. Returns whether the caller should forward the frame; when not, the client has
     * its answer.
     */
    private boolean track(FrameView frame) {
        BaseCommand command = FrameReader.parse(frame);
        switch (command.getType()) {
            case PRODUCER -> {
                long requestId = command.getProducer().getRequestId();
                if (!admit(RequestType.NEW_PRODUCER, requestId)) {
                    return false;
                }
                connection.publish.producerRequested(
                        requestId,
                        command.getProducer().getProducerId(),
                        command.getProducer().getTopic());
            }
            case SUBSCRIBE -> {
                long requestId = command.getSubscribe().getRequestId();
                if (!admit(RequestType.NEW_CONSUMER, requestId)) {
                    return false;
                }
                connection.dispatch.consumerRequested(
                        requestId,
                        command.getSubscribe().getConsumerId(),
                        command.getSubscribe().getTopic());
            }
            case CLOSE_PRODUCER ->
                connection.publish.producerClosed(command.getCloseProducer().getProducerId());
            case CLOSE_CONSUMER ->
                connection.dispatch.consumerClosed(command.getCloseConsumer().getConsumerId());
            default -> {}
        }
        return true;
    }

    /** Admission control for a new producer or consumer; a refusal answers ServiceNotReady, which clients retry. */
    private boolean admit(RequestType type, long requestId) {
        AdmissionDecision decision = services.admission().admit(type);
        if (decision.admitted()) {
            return true;
        }
        connection.relay.toClient(FrameWriter.error(
                connection.relay.alloc(), requestId, ServerError.ServiceNotReady, decision.rejectMessage()));
        return false;
    }
}
