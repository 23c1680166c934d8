package io.sluice.kafka.routing;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.sluice.kafka.codec.ApiVersionsResponseRewriter;
import io.sluice.kafka.codec.HandledApi;
import io.sluice.kafka.codec.NodeEndpointsProbe;
import io.sluice.kafka.codec.ResponseHeader;
import io.sluice.kafka.codec.WireCursor;

/**
 * What Sluice changes in the broker's responses on one connection before the client sees them.
 * In both modes ApiVersions is narrowed to what Sluice handles and Metadata teaches the topic ids;
 * in {@link RoutingMode#REWRITE} mode every broker address (Metadata, FindCoordinator,
 * DescribeCluster, and the node endpoints of Produce, Fetch, ShareFetch and ShareAcknowledge) is
 * replaced by Sluice's. A frame that needs no change is forwarded as the very bytes that came in; a
 * changed one is re-encoded in the response's version, its header kept as it was.
 *
 * <p>Confined to the connection's event loop.
 */
public final class ResponseRewriter {

    private final AdvertisedNodes nodes;
    private final TopicIds topicIds;
    private final WireCursor cursor = new WireCursor();

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
     * The frame to send the client for response {@code frame} (size prefix included) to a request
     * for {@code apiKey} v{@code apiVersion}. Takes ownership of {@code frame}: returns it as it is,
     * or releases it and returns a new frame. The caller owns the result. A response that cannot be
     * read raises a {@link io.sluice.relay.MalformedFrameException} ({@code frame} released).
     */
    public ByteBuf rewrite(ByteBufAllocator alloc, ByteBuf frame, short apiKey, short apiVersion) {
        ByteBuf rewritten;
        try {
            rewritten = rewritten(alloc, frame, apiKey, apiVersion);
        } catch (RuntimeException e) {
            frame.release();
            throw e;
        }
        if (rewritten == null) {
            return frame;
        }
        frame.release();
        return rewritten;
    }

    /** A new frame, or null to forward {@code frame} as it is. */
    private ByteBuf rewritten(ByteBufAllocator alloc, ByteBuf frame, short apiKey, short apiVersion) {
        HandledApi api = HandledApi.of(apiKey);
        if (api == null) {
            return null;
        }
        if (api == HandledApi.API_VERSIONS) {
            return ApiVersionsResponseRewriter.rewrite(alloc, frame, apiVersion, cursor);
        }
        if (api != HandledApi.METADATA && nodes == null) {
            return null;
        }
        int bodyIndex = ResponseHeader.bodyIndex(frame, apiKey, apiVersion, cursor);
        return switch (api) {
            case METADATA -> MetadataResponseRewriter.rewrite(alloc, frame, bodyIndex, apiVersion, nodes, topicIds);
            case FIND_COORDINATOR ->
                FindCoordinatorResponseRewriter.rewrite(alloc, frame, bodyIndex, apiVersion, nodes);
            case DESCRIBE_CLUSTER ->
                DescribeClusterResponseRewriter.rewrite(alloc, frame, bodyIndex, apiVersion, nodes);
            case PRODUCE ->
                carriesNodeEndpoints(api, apiVersion, frame, bodyIndex)
                        ? ProduceResponseRewriter.rewrite(alloc, frame, bodyIndex, apiVersion, nodes)
                        : null;
            case FETCH ->
                carriesNodeEndpoints(api, apiVersion, frame, bodyIndex)
                        ? FetchResponseRewriter.rewrite(alloc, frame, bodyIndex, apiVersion, nodes)
                        : null;
            case SHARE_FETCH ->
                carriesNodeEndpoints(api, apiVersion, frame, bodyIndex)
                        ? ShareFetchResponseRewriter.rewrite(alloc, frame, bodyIndex, apiVersion, nodes)
                        : null;
            case SHARE_ACKNOWLEDGE ->
                carriesNodeEndpoints(api, apiVersion, frame, bodyIndex)
                        ? ShareAcknowledgeResponseRewriter.rewrite(alloc, frame, bodyIndex, apiVersion, nodes)
                        : null;
            default -> null;
        };
    }

    private boolean carriesNodeEndpoints(HandledApi api, short apiVersion, ByteBuf frame, int bodyIndex) {
        return NodeEndpointsProbe.carriesNodeEndpoints(api, apiVersion, frame, bodyIndex, cursor);
    }
}
