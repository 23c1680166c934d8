package io.sluice.kafka.routing;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.sluice.kafka.codec.MessageFrames;
import org.apache.kafka.common.message.ProduceResponseData;
import org.apache.kafka.common.message.ProduceResponseData.NodeEndpoint;

/**
 * Produce responses (v10+, KIP-951): the endpoints of the new leaders a broker names after a leader moved become Sluice.
 * Called only for responses that carry some (see {@link io.sluice.kafka.codec.NodeEndpointsProbe}).
 */
final class ProduceResponseRewriter {

    private ProduceResponseRewriter() {}

    /** A new frame the caller owns, or null when no address changed; {@code frame} stays the caller's. */
    static ByteBuf rewrite(ByteBufAllocator alloc, ByteBuf frame, int bodyIndex, short version, AdvertisedNodes nodes) {
        ProduceResponseData data =
                MessageFrames.read(new ProduceResponseData(), frame, bodyIndex, version, "bad_response_body");
        boolean changed = nodes.rewrite(
                data.nodeEndpoints(),
                NodeEndpoint::nodeId,
                NodeEndpoint::host,
                NodeEndpoint::port,
                (endpoint, host, port) -> endpoint.setHost(host).setPort(port));
        return changed ? MessageFrames.withBody(alloc, frame, bodyIndex, data, version, "bad_response_body") : null;
    }
}
