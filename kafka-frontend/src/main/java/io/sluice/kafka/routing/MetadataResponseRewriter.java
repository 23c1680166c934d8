package io.sluice.kafka.routing;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.sluice.kafka.codec.MessageFrames;
import org.apache.kafka.common.message.MetadataResponseData;
import org.apache.kafka.common.message.MetadataResponseData.MetadataResponseBroker;
import org.apache.kafka.common.message.MetadataResponseData.MetadataResponseTopic;

/** Metadata responses: learns topic ids, and puts Sluice in place of every broker listed. */
final class MetadataResponseRewriter {

    private MetadataResponseRewriter() {}

    /**
     * Learns the topic ids of the response body at {@code bodyIndex} of {@code frame}; with
     * {@code nodes} (rewrite mode) rewrites its brokers. Returns a new frame the caller owns, or null
     * when nothing changed; {@code frame} stays the caller's.
     */
    static ByteBuf rewrite(
            ByteBufAllocator alloc,
            ByteBuf frame,
            int bodyIndex,
            short version,
            AdvertisedNodes nodes,
            TopicIds topicIds) {
        MetadataResponseData data =
                MessageFrames.read(new MetadataResponseData(), frame, bodyIndex, version, "bad_response_body");
        for (MetadataResponseTopic topic : data.topics()) {
            topicIds.learn(topic.topicId(), topic.name());
        }
        if (nodes == null) {
            return null;
        }
        boolean changed = nodes.rewrite(
                data.brokers(),
                MetadataResponseBroker::nodeId,
                MetadataResponseBroker::host,
                MetadataResponseBroker::port,
                (broker, host, port) -> broker.setHost(host).setPort(port));
        return changed ? MessageFrames.withBody(alloc, frame, bodyIndex, data, version, "bad_response_body") : null;
    }
}
