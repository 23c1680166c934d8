package io.sluice.kafka.routing;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.sluice.kafka.codec.MessageFrames;
import org.apache.kafka.common.message.FindCoordinatorResponseData;
import org.apache.kafka.common.message.FindCoordinatorResponseData.Coordinator;

import java.util.List;

/** FindCoordinator responses: the coordinator (v0-v3) or each coordinator (v4+) becomes Sluice. */
final class FindCoordinatorResponseRewriter {

    private FindCoordinatorResponseRewriter() {}

    /** A new frame the caller owns, or null when no address changed; {@code frame} stays the caller's. */
    static ByteBuf rewrite(ByteBufAllocator alloc, ByteBuf frame, int bodyIndex, short version, AdvertisedNodes nodes) {
        FindCoordinatorResponseData data =
                MessageFrames.read(new FindCoordinatorResponseData(), frame, bodyIndex, version, "bad_response_body");
        boolean changed = version < 4
                ? nodes.rewrite(
                        List.of(data),
                        FindCoordinatorResponseData::nodeId,
                        FindCoordinatorResponseData::host,
                        FindCoordinatorResponseData::port,
                        (single, host, port) -> single.setHost(host).setPort(port))
                : nodes.rewrite(
                        data.coordinators(),
                        Coordinator::nodeId,
                        Coordinator::host,
                        Coordinator::port,
                        (coordinator, host, port) -> coordinator.setHost(host).setPort(port));
        return changed ? MessageFrames.withBody(alloc, frame, bodyIndex, data, version, "bad_response_body") : null;
    }
}
