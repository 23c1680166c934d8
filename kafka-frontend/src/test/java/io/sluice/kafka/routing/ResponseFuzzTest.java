package io.sluice.kafka.routing;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.UnpooledByteBufAllocator;
import io.sluice.kafka.codec.HandledApi;
import io.sluice.kafka.testing.BrokerResponses;
import io.sluice.kafka.testing.KafkaFrames;
import io.sluice.kafka.testing.NodeAddresses;
import io.sluice.kafka.testing.ResponseFuzzInput;
import io.sluice.relay.MalformedFrameException;
import io.sluice.testing.ByteMutator;
import io.sluice.testing.FuzzCorpus;
import io.sluice.testing.LeakCheck;
import org.apache.kafka.common.message.ApiVersionsResponseData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.requests.AbstractResponse;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Arbitrary broker responses through {@link ResponseRewriter} in rewrite mode, for every handled API
 * and version. The only exception that may escape is {@link MalformedFrameException}, and whatever
 * Sluice forwards, rewritten or not, must not let a client around it: if a Java client can read the
 * frame, every broker it names is at Sluice's address, and an ApiVersions answer offers no version
 * Sluice does not handle. Every buffer is released.
 *
 * <p>Input: the request's API key and version (two int16s, mapped onto the handled ones), then the
 * response frame. Seeds ({@code ResponseFuzzTestInputs/brokerResponse}): every handled response in
 * every version built by kafka-clients ({@link #seeds()}), what the recording broker answered real
 * clients (see {@code RealClientRequestsTest}), and the inputs of bugs found.
 */
@ExtendWith(LeakCheck.class)
class ResponseFuzzTest {

    private static final int GENERATED_INPUTS = 4_000;
    private static final String SLUICE = "sluice.example";
    private static final int NODE_PORT_BASE = 20000;
    private static final HandledApi[] ANSWERED = {
        HandledApi.PRODUCE,
        HandledApi.FETCH,
        HandledApi.METADATA,
        HandledApi.FIND_COORDINATOR,
        HandledApi.DESCRIBE_CLUSTER,
        HandledApi.API_VERSIONS,
        HandledApi.SHARE_FETCH,
        HandledApi.SHARE_ACKNOWLEDGE
    };

    @FuzzTest(maxDuration = "10m")
    void brokerResponse(byte[] input) {
        if (input.length < 4) {
            return;
        }
        ByteBuffer in = ByteBuffer.wrap(input);
        HandledApi api = ANSWERED[Math.floorMod(in.getShort(), ANSWERED.length)];
        short version =
                (short) (api.minVersion() + Math.floorMod(in.getShort(), api.maxVersion() - api.minVersion() + 1));
        UnpooledByteBufAllocator alloc = new UnpooledByteBufAllocator(false);
        ResponseRewriter rewriter = ResponseRewriter.rewriting(
                new AdvertisedNodes(SLUICE, NODE_PORT_BASE, (id, host, port) -> {}), new TopicIds(16));
        ByteBuf frame = alloc.heapBuffer(input.length - 4).writeBytes(input, 4, input.length - 4);
        ByteBuf out;
        try {
            out = ResponseRewriterTest.rewritten(rewriter, alloc, frame, api.key().id, version);
        } catch (MalformedFrameException expected) {
            assertEquals(0, alloc.metric().usedHeapMemory(), "buffers left unreleased");
            return;
        }
        try {
            assertNoWayAround(api, version, out);
        } finally {
            out.release();
        }
        assertEquals(0, alloc.metric().usedHeapMemory(), "buffers left unreleased");
    }

    @Test
    void generatedInputs() {
        List<byte[]> corpus = new ArrayList<>(FuzzCorpus.of(ResponseFuzzTest.class, "brokerResponse"));
        corpus.addAll(seeds());
        new ByteMutator(5_150L, corpus).feed(GENERATED_INPUTS, input -> brokerResponse(input));
    }

    @Test
    void seedsPassAsTheyAre() {
        for (byte[] seed : seeds()) {
            brokerResponse(seed);
        }
    }

    /** Every handled response of every version as kafka-clients writes it, node endpoints included. */
    static List<byte[]> seeds() {
        List<byte[]> seeds = new ArrayList<>();
        for (HandledApi api : ANSWERED) {
            if (api == HandledApi.API_VERSIONS) {
                continue;
            }
            int index = indexOf(api);
            for (short version = api.minVersion(); version <= api.maxVersion(); version++) {
                ByteBuf frame = KafkaFrames.response(BrokerResponses.of(api.key(), version, true), version, 1);
                seeds.add(ResponseFuzzInput.encode(
                        (short) index, (short) (version - api.minVersion()), KafkaFrames.frameBytes(frame)));
                frame.release();
            }
        }
        return seeds;
    }

    private static int indexOf(HandledApi api) {
        for (int i = 0; i < ANSWERED.length; i++) {
            if (ANSWERED[i] == api) {
                return i;
            }
        }
        throw new IllegalArgumentException(api.toString());
    }

    private static void assertNoWayAround(HandledApi api, short version, ByteBuf out) {
        AbstractResponse read;
        try {
            read = KafkaFrames.asClientReads(out, api.key(), version, out.getInt(out.readerIndex() + 4));
        } catch (RuntimeException | AssertionError unreadable) {
            // A client cannot use it either: it drops the connection.
            return;
        }
        if (read.data() instanceof ApiVersionsResponseData versions) {
            for (ApiVersionsResponseData.ApiVersion range : versions.apiKeys()) {
                HandledApi handled = HandledApi.of(range.apiKey());
                if (handled != null && range.minVersion() <= range.maxVersion()) {
                    assertTrue(
                            range.maxVersion() <= handled.maxVersion(),
                            "offers " + ApiKeys.forId(range.apiKey()) + " v" + range.maxVersion());
                }
            }
            return;
        }
        for (NodeAddresses.Address address : NodeAddresses.of(read.data(), version)) {
            if (address.nodeId() >= 0) {
                assertEquals(
                        new NodeAddresses.Address(address.nodeId(), SLUICE, NODE_PORT_BASE + address.nodeId()),
                        address,
                        "a client would reach a broker around Sluice");
            }
        }
    }
}
