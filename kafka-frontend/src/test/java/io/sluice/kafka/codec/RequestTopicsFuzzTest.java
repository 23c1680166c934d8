package io.sluice.kafka.codec;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.sluice.kafka.testing.KafkaFrames;
import io.sluice.relay.FrameView;
import io.sluice.relay.MalformedFrameException;
import io.sluice.testing.ByteMutator;
import org.apache.kafka.common.message.ApiMessageType;
import org.apache.kafka.common.protocol.ApiKeys;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertNotNull;

/**
 * Arbitrary bodies of every request that names topics through {@link RequestTopics}, in every
 * version kafka-clients reads (the first byte picks the API, the second its version): topic names
 * come out or the request is refused as malformed, nothing else escapes. Seeds: a request of each
 * API naming a topic, as a client writes it; {@link #generatedInputs} runs a seeded mutation loop
 * in every build.
 */
class RequestTopicsFuzzTest {

    private static final int GENERATED_INPUTS = 3_000;

    @FuzzTest(maxDuration = "5m")
    void bodies(byte[] input) {
        if (input.length < 2) {
            return;
        }
        ApiKeys api = TopicNamingRequests.APIS.get((input[0] & 0xff) % TopicNamingRequests.APIS.size());
        int versions = api.latestVersion(true) - api.oldestVersion() + 1;
        short version = (short) (api.oldestVersion() + (input[1] & 0xff) % versions);
        ByteBuf frame = frame(api, version, Arrays.copyOfRange(input, 2, input.length));
        try {
            FrameView view = KafkaFrames.view(frame);
            RequestHeader header = new RequestHeader().read(view);
            try {
                RequestTopics.forEach(view, header, id -> null, name -> assertNotNull(name, "a name or nothing"));
            } catch (MalformedFrameException refused) {
                // Unreadable: the connection closes, nothing is charged.
            }
        } finally {
            frame.release();
        }
    }

    @Test
    void generatedInputs() {
        List<byte[]> seeds = new ArrayList<>();
        for (int i = 0; i < TopicNamingRequests.APIS.size(); i++) {
            ApiKeys api = TopicNamingRequests.APIS.get(i);
            ByteBuf frame = KafkaFrames.request(
                    TopicNamingRequests.naming(api, "orders"), TopicNamingRequests.version(api), 7, "fuzz");
            try {
                int bodyIndex =
                        new RequestHeader().read(KafkaFrames.view(frame)).bodyIndex();
                byte[] seed = new byte[2 + frame.writerIndex() - bodyIndex];
                seed[0] = (byte) i;
                seed[1] = (byte) (TopicNamingRequests.version(api) - api.oldestVersion());
                frame.getBytes(bodyIndex, seed, 2, seed.length - 2);
                seeds.add(seed);
            } finally {
                frame.release();
            }
        }
        ByteMutator mutator = new ByteMutator(20_261_205L, seeds);
        for (int i = 0; i < GENERATED_INPUTS; i++) {
            byte[] input = mutator.next();
            try {
                bodies(input);
            } catch (RuntimeException | AssertionError e) {
                throw new AssertionError("input " + HexFormat.of().formatHex(input), e);
            }
        }
    }

    /** A request frame of {@code api} and {@code version} with a header as a client writes it and {@code body}. */
    private static ByteBuf frame(ApiKeys api, short version, byte[] body) {
        ByteBuf empty = KafkaFrames.request(ApiMessageType.fromApiKey(api.id).newRequest(), version, 7, "fuzz");
        try {
            int bodyIndex = new RequestHeader().read(KafkaFrames.view(empty)).bodyIndex();
            int headerSize = bodyIndex - empty.readerIndex() - 4;
            ByteBuf frame = Unpooled.buffer(4 + headerSize + body.length);
            frame.writeInt(headerSize + body.length);
            frame.writeBytes(empty, empty.readerIndex() + 4, headerSize);
            frame.writeBytes(body);
            return frame;
        } finally {
            empty.release();
        }
    }
}
