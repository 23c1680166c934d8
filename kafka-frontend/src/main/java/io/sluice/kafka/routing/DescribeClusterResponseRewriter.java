package io.sluice.kafka.routing;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.sluice.kafka.codec.MessageFrames;
import org.apache.kafka.common.message.DescribeClusterResponseData;
import org.apache.kafka.common.message.DescribeClusterResponseData.DescribeClusterBroker;

/** DescribeCluster responses: every broker listed becomes Sluice. */
final class DescribeClusterResponseRewriter {

    private DescribeClusterResponseRewriter() {}

    /** A new frame the caller owns, or null when no address changed; {@code frame} stays the caller's. */
    static ByteBuf rewrite(ByteBufAllocator alloc, ByteBuf frame, int bodyIndex, short version, AdvertisedNodes nodes) {
        DescribeClusterResponseData data =
                MessageFrames.read(new DescribeClusterResponseData(), frame, bodyIndex, version, "bad_response_body");
        boolean changed = nodes.rewrite(
                data.brokers(),
                DescribeClusterBroker::brokerId,
                DescribeClusterBroker::host,
                DescribeClusterBroker::port,
                (broker, host, port) -> broker.setHost(host).setPort(port));
        return changed ? MessageFrames.withBody(alloc, frame, bodyIndex, data, version, "bad_response_body") : null;
    }
}
