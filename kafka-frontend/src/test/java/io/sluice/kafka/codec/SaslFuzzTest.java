package io.sluice.kafka.codec;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.sluice.testing.ByteMutator;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Arbitrary first SASL tokens through {@link SaslUserName}, for each mechanism it reads (the first
 * byte picks it): nothing may escape, and a name, when there is one, is non-empty and shorter than
 * the token it came from. Seeds: the tokens of stock clients, as {@link SaslUserNameTest} has them.
 */
class SaslFuzzTest {

    private static final String[] MECHANISMS = {
        SaslUserName.PLAIN, SaslUserName.SCRAM_SHA_256, SaslUserName.SCRAM_SHA_512, SaslUserName.OAUTHBEARER, "GSSAPI"
    };
    private static final int GENERATED_INPUTS = 2_000;

    @FuzzTest(maxDuration = "5m")
    void firstTokens(byte[] input) {
        if (input.length == 0) {
            return;
        }
        String mechanism = MECHANISMS[(input[0] & 0xff) % MECHANISMS.length];
        byte[] token = Arrays.copyOfRange(input, 1, input.length);
        String name = SaslUserName.of(mechanism, token);
        if (name != null) {
            assertTrue(!name.isEmpty(), "an empty name");
            assertTrue(name.length() <= token.length, "a name longer than its token: " + name.length());
        }
    }

    @Test
    void generatedInputs() {
        String jwt = SaslUserNameTest.unsecuredToken("{\"sub\":\"alice\",\"nested\":{\"sub\":\"x\"},\"list\":[1,{}]}");
        List<byte[]> seeds = List.of(
                seed(0, "\0alice\0alice-secret"),
                seed(0, "admin\0alice\0alice-secret"),
                seed(1, "n,,n=alice,r=fyko+d2lbbFgONRv9qkxdawL"),
                seed(2, "n,a=a=2Cb,n=a=2Cb=3Dc,r=nonce,ext=1"),
                seed(3, "n,,\u0001auth=Bearer " + jwt + "\u0001\u0001"),
                seed(4, "\u0060\u0082"));
        new ByteMutator(20_261_202L, seeds).feed(GENERATED_INPUTS, input -> firstTokens(input));
    }

    private static byte[] seed(int mechanism, String token) {
        byte[] bytes = token.getBytes(StandardCharsets.UTF_8);
        byte[] seed = new byte[bytes.length + 1];
        seed[0] = (byte) mechanism;
        System.arraycopy(bytes, 0, seed, 1, bytes.length);
        return seed;
    }
}
