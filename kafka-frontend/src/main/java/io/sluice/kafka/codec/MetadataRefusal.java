package io.sluice.kafka.codec;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import org.apache.kafka.common.message.MetadataResponseData;

/**
 * Sluice's answer to a Metadata request that admission control refuses: a response listing no
 * brokers and no topics, which is what a broker still starting up answers. The Java client ignores
 * such a response and asks again after its back-off; nothing in it names a broker that is not
 * there. No version of Metadata has an error message to say it is Sluice's, so the refusal is
 * counted and logged instead.
 */
public final class MetadataRefusal {

    private MetadataRefusal() {}

    /** The refusal of the Metadata request {@code header} was read from; the caller owns it. */
    public static ByteBuf noBrokers(ByteBufAllocator alloc, RequestHeader header) {
        if (header.apiKey() != HandledApi.METADATA.key().id) {
            throw new IllegalArgumentException("not a Metadata request: API key " + header.apiKey());
        }
        return MessageFrames.response(alloc, header.correlationId(), new MetadataResponseData(), header.apiVersion());
    }
}
