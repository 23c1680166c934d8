package io.sluice.kafka.connection;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.sluice.admission.AdmissionDecision;
import io.sluice.admission.RequestType;
import io.sluice.kafka.codec.ApiVersionsResponseRewriter;
import io.sluice.kafka.codec.MetadataRefusal;
import io.sluice.kafka.codec.RequestHeader;
import io.sluice.relay.ConnectionState;
import io.sluice.relay.Drain;
import io.sluice.relay.FrameView;
import io.sluice.relay.ProxyServices;
import org.apache.kafka.common.protocol.ApiKeys;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Requests from the client, each lent by the decoder for the call: reads each one's header in place (an unknown API or a version Sluice
 * does not handle closes the connection), applies admission control to new connections and
 * Metadata requests, answers an ApiVersions request newer than Sluice handles as a broker would,
 * hands Produce and Fetch requests to the connection's quota gates, and forwards every other
 * request unchanged.
 */
final class ClientHandler extends ChannelInboundHandlerAdapter {

    private static final Logger log = LoggerFactory.getLogger(ClientHandler.class);

    private static final short PRODUCE = ApiKeys.PRODUCE.id;
    private static final short FETCH = ApiKeys.FETCH.id;
    private static final short METADATA = ApiKeys.METADATA.id;

    private final KafkaSettings settings;
    private final ProxyServices services;
    private final UpstreamRoute route;
    private final RequestHeader header = new RequestHeader();
    private KafkaConnection connection;

    ClientHandler(KafkaSettings settings, ProxyServices services, UpstreamRoute route) {
        this.settings = settings;
        this.services = services;
        this.route = route;
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) {
        connection = new KafkaConnection(ctx.channel(), settings, services, route);
        services.stats().connectionOpened();
        AdmissionDecision admission = services.admission().admit(RequestType.NEW_CONNECTION);
        if (!admission.admitted()) {
            // A broker over its connection quota closes a new connection too; the client retries.
            log.debug(
                    "Refusing Kafka connection from {}: {}", ctx.channel().remoteAddress(), admission.rejectMessage());
            connection.close();
        }
        ctx.fireChannelActive();
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        FrameView frame = (FrameView) msg;
        if (connection.state() == ConnectionState.CLOSED) {
            // The rest of a read that closed the connection: nothing more is taken from it.
            return;
        }
        services.stats().bytesFromClient(frame.length());
        header.read(frame);
        services.stats().request(header.apiKey());
        if (header.isNewerApiVersions()) {
            connection.answer(
                    header, ApiVersionsResponseRewriter.unsupportedVersion(ctx.alloc(), header.correlationId()));
            return;
        }
        short apiKey = header.apiKey();
        if (apiKey == PRODUCE) {
            connection.gates().produce().request(frame, header);
        } else if (apiKey == FETCH) {
            connection.gates().fetch().request(frame, header);
        } else if (apiKey == METADATA) {
            metadata(ctx, frame);
        } else {
            connection.forward(frame, header);
        }
    }

    /** Admission control for a Metadata request: forwarded when admitted, else refused as a starting broker would. */
    private void metadata(ChannelHandlerContext ctx, FrameView frame) {
        AdmissionDecision decision = services.admission().admit(RequestType.METADATA);
        if (decision.admitted()) {
            connection.forward(frame, header);
            return;
        }
        log.debug("Refusing a Metadata request from {}: {}", ctx.channel().remoteAddress(), decision.rejectMessage());
        connection.answer(header, MetadataRefusal.noBrokers(ctx.alloc(), header));
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object event) {
        if (event == Drain.REQUEST) {
            connection.drain();
        } else {
            ctx.fireUserEventTriggered(event);
        }
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) {
        connection.flushBroker();
        // Sluice's own answers written while reading the client.
        connection.flushClient();
        ctx.fireChannelReadComplete();
    }

    @Override
    public void channelWritabilityChanged(ChannelHandlerContext ctx) {
        connection.clientWritabilityChanged();
        ctx.fireChannelWritabilityChanged();
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        connection.close();
        ctx.fireChannelInactive();
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        connection.fail(cause);
    }
}
