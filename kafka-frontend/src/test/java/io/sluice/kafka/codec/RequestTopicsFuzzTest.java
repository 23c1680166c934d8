package io.sluice.kafka.codec;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.netty.buffer.ByteBuf;
import io.sluice.kafka.testing.KafkaFrames;
import io.sluice.relay.FrameView;
import io.sluice.relay.MalformedFrameException;
import io.sluice.testing.ByteMutator;
import org.apache.kafka.common.message.ApiMessageType;
import org.apache.kafka.common.protocol.ApiKeys;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Arrays;
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
        short version = FuzzFrames.version(api.oldestVersion(), api.latestVersion(true), input[1]);
        ByteBuf frame = FuzzFrames.request(
                ApiMessageType.fromApiKey(api.id).newRequest(), version, Arrays.copyOfRange(input, 2, input.length));
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
            seeds.add(FuzzFrames.seed(
                    i,
                    api.oldestVersion(),
                    TopicNamingRequests.version(api),
                    TopicNamingRequests.naming(api, "orders")));
        }
        new ByteMutator(20_261_205L, seeds).feed(GENERATED_INPUTS, input -> bodies(input));
    }
}
