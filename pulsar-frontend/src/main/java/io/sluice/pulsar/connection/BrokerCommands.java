package io.sluice.pulsar.connection;

import io.netty.buffer.ByteBuf;
import io.sluice.pulsar.codec.FrameReader;
import io.sluice.pulsar.codec.proto.BaseCommand;
import io.sluice.pulsar.codec.proto.CommandTopicMigrated.ResourceType;
import io.sluice.pulsar.lookup.LookupMode;
import io.sluice.pulsar.lookup.LookupRewriter;
import io.sluice.relay.FrameView;
import io.sluice.relay.InboundFrames;

/**
 * Commands from the broker: learns the broker's limits from CONNECTED (which also completes the
 * handshake, ending its deadline), hands receipts and messages to the gates, tells them of
 * created, refused and closed producers and consumers, rewrites lookups in
 * {@link LookupMode#REWRITE}, and forwards everything to the client unchanged otherwise.
 */
final class BrokerCommands {

    private static final int CONNECTED = BaseCommand.Type.CONNECTED_VALUE;
    private static final int PRODUCER_SUCCESS = BaseCommand.Type.PRODUCER_SUCCESS_VALUE;
    private static final int SUCCESS = BaseCommand.Type.SUCCESS_VALUE;
    private static final int ERROR = BaseCommand.Type.ERROR_VALUE;
    private static final int CLOSE_PRODUCER = BaseCommand.Type.CLOSE_PRODUCER_VALUE;
    private static final int CLOSE_CONSUMER = BaseCommand.Type.CLOSE_CONSUMER_VALUE;
    private static final int TOPIC_MIGRATED = BaseCommand.Type.TOPIC_MIGRATED_VALUE;
    private static final int LOOKUP_RESPONSE = BaseCommand.Type.LOOKUP_RESPONSE_VALUE;
    private static final int SEND_RECEIPT = BaseCommand.Type.SEND_RECEIPT_VALUE;
    private static final int SEND_ERROR = BaseCommand.Type.SEND_ERROR_VALUE;
    private static final int MESSAGE = BaseCommand.Type.MESSAGE_VALUE;

    private final PulsarConnection connection;
    private final boolean rewriteLookups;
    private final boolean upstreamTls;

    BrokerCommands(PulsarConnection connection) {
        this.connection = connection;
        this.rewriteLookups = connection.settings.lookupMode() == LookupMode.REWRITE;
        this.upstreamTls = connection.settings.upstreamTls() != null;
    }

    /** A frame from the broker, lent. */
    void read(FrameView frame) {
        int type = FrameReader.type(frame);
        if (type == SEND_RECEIPT || type == SEND_ERROR) {
            connection.publish.answer(frame, type);
            return;
        }
        switch (type) {
            case MESSAGE -> connection.dispatch.message(frame);
            case CONNECTED, PRODUCER_SUCCESS, SUCCESS, ERROR, CLOSE_PRODUCER, CLOSE_CONSUMER, TOPIC_MIGRATED ->
                track(FrameReader.parse(frame));
            case LOOKUP_RESPONSE -> {
                if (rewriteLookups) {
                    ByteBuf rewritten = InboundFrames.readOrRelease(
                            frame.retainedSlice(),
                            lookup -> LookupRewriter.rewrite(connection.relay.alloc(), lookup, upstreamTls));
                    connection.relay.toClient(rewritten);
                    return;
                }
            }
            default -> {}
        }
        connection.relay.toClient(frame);
    }

    private void track(BaseCommand command) {
        switch (command.getType()) {
            case CONNECTED -> connection.connected(command.getConnected().getMaxMessageSize());
            case PRODUCER_SUCCESS ->
                connection.publish.producerCreated(command.getProducerSuccess().getRequestId());
            case SUCCESS ->
                connection.dispatch.consumerCreated(command.getSuccess().getRequestId());
            case ERROR -> {
                connection.publish.requestFailed(command.getError().getRequestId());
                connection.dispatch.requestFailed(command.getError().getRequestId());
            }
            case CLOSE_PRODUCER ->
                connection.publish.producerClosed(command.getCloseProducer().getProducerId());
            case CLOSE_CONSUMER ->
                connection.dispatch.consumerClosed(command.getCloseConsumer().getConsumerId());
            case TOPIC_MIGRATED -> {
                if (command.getTopicMigrated().getResourceType() == ResourceType.Producer) {
                    connection.publish.producerClosed(command.getTopicMigrated().getResourceId());
                } else {
                    connection.dispatch.consumerClosed(
                            command.getTopicMigrated().getResourceId());
                }
            }
            default -> {}
        }
    }
}
