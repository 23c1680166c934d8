package io.sluice.kafka.codec;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.sluice.relay.FrameView;
import io.sluice.relay.MalformedFrameException;
import org.apache.kafka.common.message.ApiVersionsResponseData;
import org.apache.kafka.common.message.ApiVersionsResponseData.ApiVersion;
import org.apache.kafka.common.message.ApiVersionsResponseData.ApiVersionCollection;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.Errors;

import java.util.Iterator;

/**
 * Rewrites the broker's ApiVersions response so that a client negotiates only versions Sluice can
 * read: for each {@link HandledApi} the advertised range becomes the intersection of the broker's
 * and Sluice's (the API is dropped when they do not meet), APIs Sluice does not know are dropped,
 * and every other API keeps the broker's range. A newer client therefore cannot pick a version
 * whose messages Sluice would misread. Everything else in the response (features, throttle time,
 * unknown tagged fields) is kept.
 *
 * <p>One exception keeps the broker's minimum, because librdkafka enables features only where an
 * API's advertised range includes v0: Kafka advertises Produce from v0 although it serves it from
 * v3, and Sluice keeps that minimum for the same reason, closing (like the broker) a connection
 * that uses v0-v2. (SaslHandshake's v0, without which librdkafka decides that the broker has no
 * SASL handshake at all, Sluice reads.)
 */
public final class ApiVersionsResponseRewriter {

    private ApiVersionsResponseRewriter() {}

    /**
     * Rewrites the ApiVersions response {@code frame} (body at {@code bodyIndex}) to a request of
     * version {@code requestVersion}: null when no range changed (forward {@code frame} as it is),
     * else a new frame with the same header, which the caller owns. {@code frame} stays its owner's
     * either way.
     */
    public static ByteBuf rewrite(ByteBufAllocator alloc, FrameView frame, int bodyIndex, short requestVersion) {
        // A broker that does not know the request's version answers in v0 (UNSUPPORTED_VERSION and
        // its own range); clients read it the same way, trying the request's version first.
        short version = requestVersion;
        ApiVersionsResponseData data;
        try {
            data = MessageFrames.read(new ApiVersionsResponseData(), frame, bodyIndex, version, "bad_response_body");
        } catch (MalformedFrameException e) {
            if (version == 0) {
                throw e;
            }
            version = 0;
            data = MessageFrames.read(new ApiVersionsResponseData(), frame, bodyIndex, version, "bad_response_body");
        }
        return restrict(data.apiKeys())
                ? MessageFrames.withBody(alloc, frame, bodyIndex, data, version, "bad_response_body")
                : null;
    }

    /**
     * Sluice's own answer to an ApiVersions request newer than it handles: what a broker answers to
     * a version it does not know (v0, UNSUPPORTED_VERSION, the ApiVersions range it supports), so
     * that the client retries within Sluice's range. The caller owns the frame.
     */
    public static ByteBuf unsupportedVersion(ByteBufAllocator alloc, int correlationId) {
        ApiVersionCollection keys = new ApiVersionCollection();
        keys.add(new ApiVersion()
                .setApiKey(ApiKeys.API_VERSIONS.id)
                .setMinVersion(HandledApi.API_VERSIONS.minVersion())
                .setMaxVersion(HandledApi.API_VERSIONS.maxVersion()));
        ApiVersionsResponseData data = new ApiVersionsResponseData()
                .setErrorCode(Errors.UNSUPPORTED_VERSION.code())
                .setApiKeys(keys);
        return MessageFrames.responseWithHeaderV0(alloc, correlationId, data, (short) 0);
    }

    /** Narrows {@code keys} to what Sluice handles; whether anything changed. */
    private static boolean restrict(ApiVersionCollection keys) {
        boolean changed = false;
        for (Iterator<ApiVersion> it = keys.iterator(); it.hasNext(); ) {
            ApiVersion range = it.next();
            if (RequestHeader.knownKey(range.apiKey()) == null) {
                it.remove();
                changed = true;
                continue;
            }
            HandledApi handled = HandledApi.of(range.apiKey());
            if (handled == null) {
                continue;
            }
            short lowest = (short) Math.max(range.minVersion(), handled.minVersion());
            short highest = (short) Math.min(range.maxVersion(), handled.maxVersion());
            if (lowest > highest) {
                it.remove();
                changed = true;
                continue;
            }
            boolean brokersMinimum = handled == HandledApi.PRODUCE;
            short advertisedMin = brokersMinimum ? range.minVersion() : lowest;
            if (advertisedMin != range.minVersion() || highest != range.maxVersion()) {
                range.setMinVersion(advertisedMin).setMaxVersion(highest);
                changed = true;
            }
        }
        return changed;
    }
}
