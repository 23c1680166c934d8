package io.sluice.kafka.routing;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.sluice.kafka.codec.ApiVersionsResponseRewriter;
import io.sluice.kafka.codec.HandledApi;
import io.sluice.kafka.codec.MessageFrames;
import io.sluice.kafka.codec.ResponseFrame;
import org.apache.kafka.common.protocol.ApiMessage;

/**
 * What Sluice changes in the broker's responses on one connection before the client sees them.
 * In both modes ApiVersions is narrowed to what Sluice handles and Metadata teaches the topic ids;
 * in {@link RoutingMode#REWRITE} mode every broker address (Metadata, FindCoordinator,
 * DescribeCluster, and the node endpoints of Produce, Fetch, ShareFetch and ShareAcknowledge) is
 * replaced by Sluice's. Where each API names brokers is data ({@link AddressedResponse}); the
 * rewriting is one: read the body, put Sluice in place of each broker, write the body back in the
 * response's version, its header kept as it was. A frame that needs no change goes on as the very
 * bytes that came in.
 *
 * <p>Confined to the connection's event loop.
 */
public final class ResponseRewriter {

    private static final String REASON = "bad_response_body";

    private final AdvertisedNodes nodes;
    private final TopicIds topicIds;

    /** @param nodes Sluice's addresses in rewrite mode; null in passthrough mode */
    private ResponseRewriter(AdvertisedNodes nodes, TopicIds topicIds) {
        this.nodes = nodes;
        this.topicIds = topicIds;
    }

    /** Rewrites broker addresses to {@code nodes}. */
    public static ResponseRewriter rewriting(AdvertisedNodes nodes, TopicIds topicIds) {
        if (nodes == null) {
            throw new IllegalArgumentException("rewrite mode needs Sluice's advertised addresses");
        }
        return new ResponseRewriter(nodes, topicIds);
    }

    /** Leaves broker addresses alone. */
    public static ResponseRewriter passingThrough(TopicIds topicIds) {
        return new ResponseRewriter(null, topicIds);
    }

    public RoutingMode mode() {
        return nodes == null ? RoutingMode.PASSTHROUGH : RoutingMode.REWRITE;
    }

    /**
     * Makes {@code response} what the client gets: leaves it as it is, or puts a new frame in its
     * place ({@link ResponseFrame#replace}), which {@code response} then owns. A response that cannot
     * be read raises a {@link io.sluice.relay.MalformedFrameException}.
     */
    public void rewrite(ByteBufAllocator alloc, ResponseFrame response) {
        HandledApi api = HandledApi.of(response.apiKey());
        if (api == HandledApi.API_VERSIONS) {
            ByteBuf narrowed = ApiVersionsResponseRewriter.rewrite(
                    alloc, response.frame(), response.bodyIndex(), response.apiVersion());
            if (narrowed != null) {
                response.replace(narrowed);
            }
            return;
        }
        AddressedResponse<?> addressed = api == null ? null : AddressedResponse.of(api);
        if (addressed != null && (nodes != null || addressed.learn() != null)) {
            rewrite(alloc, response, api, addressed);
        }
    }

    private <M extends ApiMessage> void rewrite(
            ByteBufAllocator alloc, ResponseFrame response, HandledApi api, AddressedResponse<M> addressed) {
        short version = response.apiVersion();
        int bodyIndex = response.bodyIndex();
        if (addressed.onlyWithNodeEndpoints() && !response.carriesNodeEndpoints(api)) {
            return;
        }
        M data = MessageFrames.read(addressed.message().get(), response.frame(), bodyIndex, version, REASON);
        if (addressed.learn() != null) {
            addressed.learn().accept(data, topicIds);
        }
        if (nodes != null && addressed.addresses().rewrite(data, version, nodes)) {
            response.replace(MessageFrames.withBody(alloc, response.frame(), bodyIndex, data, version, REASON));
        }
    }
}
