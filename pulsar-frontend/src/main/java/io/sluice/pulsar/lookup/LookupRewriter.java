package io.sluice.pulsar.lookup;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.sluice.pulsar.codec.FrameReader;
import io.sluice.pulsar.codec.FrameWriter;
import io.sluice.pulsar.codec.proto.BaseCommand;
import io.sluice.pulsar.codec.proto.CommandLookupTopicResponse;
import io.sluice.pulsar.codec.proto.CommandLookupTopicResponse.LookupType;

/**
 * For the front-proxy deployment: makes every successful lookup answer tell the client to connect
 * through its service URL (Sluice) instead of straight to the broker it names. The client then
 * opens a connection to Sluice carrying {@code proxy_to_broker_url}, which Sluice checks against
 * its {@link BrokerAllowList}.
 */
public final class LookupRewriter {

    private LookupRewriter() {
    }

    /**
     * Returns the frame to forward: {@code frame} itself when nothing needs changing, otherwise a
     * new frame, in which case {@code frame} is released. Unknown fields survive the rewrite.
     */
    public static ByteBuf rewrite(ByteBufAllocator alloc, ByteBuf frame) {
        BaseCommand command = FrameReader.parse(frame);
        CommandLookupTopicResponse response = command.getLookupTopicResponse();
        if (response.getResponse() == LookupType.Failed || response.getProxyThroughServiceUrl()) {
            return frame;
        }
        BaseCommand rewritten = command.toBuilder()
                .setLookupTopicResponse(response.toBuilder().setProxyThroughServiceUrl(true))
                .build();
        ByteBuf out = FrameWriter.encode(alloc, rewritten);
        frame.release();
        return out;
    }
}
