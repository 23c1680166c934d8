package io.sluice.kafka.codec;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.UnpooledByteBufAllocator;
import io.sluice.kafka.testing.KafkaFrames;
import io.sluice.relay.MalformedFrameException;
import io.sluice.testing.LeakCheck;
import org.apache.kafka.common.message.ApiMessageType;
import org.apache.kafka.common.message.ApiVersionsResponseData;
import org.apache.kafka.common.message.ApiVersionsResponseData.ApiVersion;
import org.apache.kafka.common.message.ApiVersionsResponseData.ApiVersionCollection;
import org.apache.kafka.common.message.ApiVersionsResponseData.FinalizedFeatureKey;
import org.apache.kafka.common.message.ApiVersionsResponseData.FinalizedFeatureKeyCollection;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.ApiVersionsResponse;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

@ExtendWith(LeakCheck.class)
class ApiVersionsResponseRewriterTest {

    private final UnpooledByteBufAllocator alloc = new UnpooledByteBufAllocator(false);
    private final WireCursor cursor = new WireCursor();

    /** The rewriter on the response {@code frame}, lent, to a request of {@code requestVersion}. */
    private ByteBuf rewrite(ByteBuf frame, short requestVersion) {
        int bodyIndex =
                ResponseHeader.bodyIndex(KafkaFrames.view(frame), ApiKeys.API_VERSIONS.id, requestVersion, cursor);
        return ApiVersionsResponseRewriter.rewrite(alloc, KafkaFrames.view(frame), bodyIndex, requestVersion);
    }

    @Test
    void advertisesOnlyVersionsSluiceHandlesInEveryRequestVersion() {
        for (short version = 0; version <= HandledApi.API_VERSIONS.maxVersion(); version++) {
            ApiVersionsResponseData broker = newerBroker();
            ByteBuf frame = KafkaFrames.response(broker, version, 77);
            ByteBuf rewritten = rewrite(frame, version);
            try {
                ApiVersionsResponse seen =
                        (ApiVersionsResponse) KafkaFrames.asClientReads(rewritten, ApiKeys.API_VERSIONS, version, 77);
                ApiVersionCollection keys = seen.data().apiKeys();
                String what = "v" + version;
                assertRange(keys, ApiKeys.FETCH, 4, 18, what);
                assertRange(keys, ApiKeys.METADATA, 0, 13, what);
                // SaslHandshake v0 is read (raw tokens); librdkafka has no SASL without it advertised.
                assertRange(keys, ApiKeys.SASL_HANDSHAKE, 0, 1, what);
                // Produce keeps the broker's minimum (librdkafka looks for v0), and Sluice's maximum.
                assertRange(keys, ApiKeys.PRODUCE, 0, 13, what);
                // Not handled: the broker's range, even beyond what kafka-clients knows.
                assertRange(keys, ApiKeys.SYNC_GROUP, 0, 99, what);
                // Handled (refused by admission control): Sluice's maximum.
                assertRange(keys, ApiKeys.JOIN_GROUP, 0, 9, what);
                assertNull(keys.find((short) 999), "an API Sluice does not know is not advertised, " + what);
                assertNull(keys.find(ApiKeys.SHARE_FETCH.id), "no versions in common, " + what);
                if (version >= 3) {
                    assertEquals(7, seen.data().finalizedFeaturesEpoch(), what);
                    assertNotNull(seen.data().finalizedFeatures().find("transaction.version"), what);
                }
                assertEquals(
                        broker.throttleTimeMs() * (version >= 1 ? 1 : 0),
                        seen.data().throttleTimeMs(),
                        what);
            } finally {
                frame.release();
                rewritten.release();
            }
        }
    }

    @Test
    void leavesAResponseWithinSluicesRangesAsItIs() {
        ApiVersionCollection keys = new ApiVersionCollection();
        keys.add(range(ApiKeys.PRODUCE, 0, 11));
        keys.add(range(ApiKeys.FETCH, 4, 15));
        keys.add(range(ApiKeys.OFFSET_COMMIT, 2, 9));
        ByteBuf frame = KafkaFrames.response(new ApiVersionsResponseData().setApiKeys(keys), (short) 3, 1);
        try {
            assertNull(rewrite(frame, (short) 3));
        } finally {
            frame.release();
        }
    }

    @Test
    void readsAndKeepsTheVersionZeroAnswerOfABrokerThatDoesNotKnowTheRequestsVersion() {
        ApiVersionCollection keys = new ApiVersionCollection();
        keys.add(range(ApiKeys.API_VERSIONS, 0, 9));
        ApiVersionsResponseData broker = new ApiVersionsResponseData()
                .setErrorCode(Errors.UNSUPPORTED_VERSION.code())
                .setApiKeys(keys);
        ByteBuf frame = KafkaFrames.response(broker, (short) 0, 3);
        ByteBuf rewritten = rewrite(frame, (short) 4);
        try {
            ApiVersionsResponse seen =
                    (ApiVersionsResponse) KafkaFrames.asClientReads(rewritten, ApiKeys.API_VERSIONS, (short) 4, 3);
            assertEquals(Errors.UNSUPPORTED_VERSION.code(), seen.data().errorCode());
            assertRange(seen.data().apiKeys(), ApiKeys.API_VERSIONS, 0, 4, "v0 answer");
            assertEquals(
                    KafkaFrames.response(seen.data(), (short) 0, 3).readableBytes(),
                    rewritten.readableBytes(),
                    "written as v0");
        } finally {
            frame.release();
            rewritten.release();
        }
    }

    @Test
    void answersANewerApiVersionsRequestAsABrokerThatDoesNotKnowItWould() {
        ByteBuf frame = ApiVersionsResponseRewriter.unsupportedVersion(alloc, 42);
        try {
            // However new the client, it reads the answer as v0 after its own version fails.
            ApiVersionsResponse seen =
                    (ApiVersionsResponse) KafkaFrames.asClientReads(frame, ApiKeys.API_VERSIONS, (short) 4, 42);
            assertEquals(Errors.UNSUPPORTED_VERSION.code(), seen.data().errorCode());
            assertEquals(1, seen.data().apiKeys().size());
            assertRange(seen.data().apiKeys(), ApiKeys.API_VERSIONS, 0, 4, "Sluice's answer");
        } finally {
            frame.release();
        }
    }

    @Test
    void rejectsAnUnreadableResponse() {
        ByteBuf frame = KafkaFrames.response(newerBroker(), (short) 3, 5);
        ByteBuf cut = frame.retainedSlice(0, 30);
        try {
            MalformedFrameException e = assertThrows(MalformedFrameException.class, () -> rewrite(cut, (short) 3));
            assertEquals("bad_response_body", e.reason());
        } finally {
            cut.release();
            frame.release();
        }
        assertEquals(0, alloc.metric().usedHeapMemory());
    }

    @Test
    void returnsTheOriginalBytesUntouched() {
        ByteBuf frame = KafkaFrames.response(newerBroker(), (short) 3, 5);
        byte[] before = ByteBufUtil.getBytes(frame);
        ByteBuf rewritten = rewrite(frame, (short) 3);
        assertEquals(ByteBufUtil.hexDump(before), ByteBufUtil.hexDump(frame));
        rewritten.release();
        frame.release();
    }

    /** What a broker newer than Sluice could say: every broker API, wider ranges, an unknown API. */
    private static ApiVersionsResponseData newerBroker() {
        ApiVersionCollection keys = ApiVersionsResponse.filterApis(ApiMessageType.ListenerType.BROKER, true, true)
                .duplicate();
        keys.find(ApiKeys.PRODUCE.id).setMinVersion((short) 0).setMaxVersion((short) 15);
        keys.find(ApiKeys.FETCH.id).setMaxVersion((short) 25);
        keys.find(ApiKeys.JOIN_GROUP.id).setMaxVersion((short) 99);
        keys.find(ApiKeys.SYNC_GROUP.id).setMaxVersion((short) 99);
        keys.find(ApiKeys.SHARE_FETCH.id).setMinVersion((short) 5).setMaxVersion((short) 6);
        keys.add(
                new ApiVersion().setApiKey((short) 999).setMinVersion((short) 0).setMaxVersion((short) 3));
        FinalizedFeatureKeyCollection features = new FinalizedFeatureKeyCollection();
        features.add(new FinalizedFeatureKey()
                .setName("transaction.version")
                .setMinVersionLevel((short) 2)
                .setMaxVersionLevel((short) 2));
        return new ApiVersionsResponseData()
                .setThrottleTimeMs(12)
                .setApiKeys(keys)
                .setFinalizedFeaturesEpoch(7)
                .setFinalizedFeatures(features);
    }

    private static ApiVersion range(ApiKeys key, int min, int max) {
        return new ApiVersion().setApiKey(key.id).setMinVersion((short) min).setMaxVersion((short) max);
    }

    private static void assertRange(ApiVersionCollection keys, ApiKeys key, int min, int max, String what) {
        ApiVersion range = keys.find(key.id);
        assertNotNull(range, key + " missing, " + what);
        assertEquals(min + "-" + max, range.minVersion() + "-" + range.maxVersion(), key + ", " + what);
    }
}
