package io.sluice.kafka.routing;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.sluice.kafka.codec.MessageFrames;
import org.apache.kafka.common.message.FetchResponseData;
import org.apache.kafka.common.message.FetchResponseData.NodeEndpoint;

/**
 * Fetch responses (v16+, KIP-951): the endpoints of the new leaders a broker names after a leader moved become Sluice.
 * Called only for responses that carry some (see {@link io.sluice.kafka.codec.NodeEndpointsProbe}).
 */
final class FetchResponseRewriter {

    private FetchResponseRewriter() {
    }

    /** A new frame the caller owns, or null when no address changed; {@code frame} stays the caller's. */
    static ByteBuf rewrite(ByteBufAllocator alloc, ByteBuf frame, int bodyIndex, short version, AdvertisedNodes nodes) {
        FetchResponseData data = MessageFrames.read(new FetchResponseData(), frame, bodyIndex, version, "bad_response_body");
        boolean changed = false;
        for (NodeEndpoint endpoint : data.nodeEndpoints()) {
            int port = nodes.advertise(endpoint.nodeId(), endpoint.host(), endpoint.port());
            if (port >= 0) {
                endpoint.setHost(nodes.host()).setPort(port);
                changed = true;
            }
        }
        return changed ? MessageFrames.withBody(alloc, frame, bodyIndex, data, version, "bad_response_body") : null;
    }
}
