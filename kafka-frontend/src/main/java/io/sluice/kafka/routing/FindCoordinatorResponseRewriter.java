package io.sluice.kafka.routing;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.sluice.kafka.codec.MessageFrames;
import org.apache.kafka.common.message.FindCoordinatorResponseData;
import org.apache.kafka.common.message.FindCoordinatorResponseData.Coordinator;

/** FindCoordinator responses: the coordinator (v0-v3) or each coordinator (v4+) becomes Sluice. */
final class FindCoordinatorResponseRewriter {

    private FindCoordinatorResponseRewriter() {
    }

    /** A new frame the caller owns, or null when no address changed; {@code frame} stays the caller's. */
    static ByteBuf rewrite(ByteBufAllocator alloc, ByteBuf frame, int bodyIndex, short version, AdvertisedNodes nodes) {
        FindCoordinatorResponseData data = MessageFrames.read(new FindCoordinatorResponseData(), frame, bodyIndex, version, "bad_response_body");
        boolean changed = false;
        if (version < 4) {
            int port = nodes.advertise(data.nodeId(), data.host(), data.port());
            if (port >= 0) {
                data.setHost(nodes.host()).setPort(port);
                changed = true;
            }
        } else {
            for (Coordinator coordinator : data.coordinators()) {
                int port = nodes.advertise(coordinator.nodeId(), coordinator.host(), coordinator.port());
                if (port >= 0) {
                    coordinator.setHost(nodes.host()).setPort(port);
                    changed = true;
                }
            }
        }
        return changed ? MessageFrames.withBody(alloc, frame, bodyIndex, data, version, "bad_response_body") : null;
    }
}
