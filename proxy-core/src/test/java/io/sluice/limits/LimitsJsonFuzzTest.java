package io.sluice.limits;

import io.sluice.settings.InvalidSettingsException;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Feeds mutated documents to the parser: each must parse or be rejected with
 * {@link InvalidSettingsException}, never another exception; what parses must round-trip.
 */
class LimitsJsonFuzzTest {

    private static final int ROUNDS = 20_000;
    private static final String[] FRAGMENTS = {
        "{",
        "}",
        "[",
        "]",
        ",",
        ":",
        "\"",
        "\\",
        "null",
        "true",
        "-",
        "0",
        "1e999",
        "-1",
        "1.5",
        "1e12",
        "NaN",
        "\"persistent://a/b/c\"",
        "\"publish\"",
        "\"onExceed\"",
        "\"reject\"",
        "\"burstSeconds\"",
        "\"maxHeldBytes\"",
        "\u00e9",
        "\u0000",
        " ",
        "\n",
        "//",
        "/*",
        "'",
    };

    @Test
    void mutatedDocumentsParseOrFailCleanly() {
        byte[] seed = LimitsJsonTest.REFERENCE_EXAMPLE.getBytes(StandardCharsets.UTF_8);
        Random random = new Random(20240611L);
        int parsed = 0;
        for (int round = 0; round < ROUNDS; round++) {
            byte[] input = seed;
            int mutations = 1 + random.nextInt(4);
            for (int m = 0; m < mutations; m++) {
                input = mutate(input, random);
            }
            try {
                LimitsDocument document = LimitsJson.parseDocument(input, TestScopes.CATALOGUE);
                assertEquals(
                        document,
                        LimitsJson.parseDocument(
                                LimitsJson.write(document, TestScopes.CATALOGUE), TestScopes.CATALOGUE));
                parsed++;
            } catch (InvalidSettingsException expected) {
                assertTrue(
                        expected.getMessage() != null && !expected.getMessage().isBlank());
            } catch (RuntimeException | AssertionError unexpected) {
                fail("input " + new String(input, StandardCharsets.UTF_8) + " threw " + unexpected, unexpected);
            }
        }
        // Some mutations (a changed digit, added whitespace) keep the document valid; make sure both paths ran.
        assertTrue(parsed > 0 && parsed < ROUNDS, "parsed " + parsed);
    }

    private static byte[] mutate(byte[] input, Random random) {
        int at = input.length == 0 ? 0 : random.nextInt(input.length);
        switch (random.nextInt(5)) {
            case 0: { // delete a span
                int length = Math.min(input.length - at, 1 + random.nextInt(8));
                byte[] out = new byte[input.length - length];
                System.arraycopy(input, 0, out, 0, at);
                System.arraycopy(input, at + length, out, at, input.length - at - length);
                return out;
            }
            case 1: // insert a JSON-ish fragment
                return insert(input, at, FRAGMENTS[random.nextInt(FRAGMENTS.length)].getBytes(StandardCharsets.UTF_8));
            case 2: { // flip one byte to a random one
                byte[] out = Arrays.copyOf(input, input.length);
                if (out.length > 0) {
                    out[at] = (byte) random.nextInt(256);
                }
                return out;
            }
            case 3: { // replace a digit, the likeliest way to stay valid
                byte[] out = Arrays.copyOf(input, input.length);
                for (int i = 0; i < out.length; i++) {
                    int j = (at + i) % out.length;
                    if (out[j] >= '0' && out[j] <= '9') {
                        out[j] = (byte) ('0' + random.nextInt(10));
                        break;
                    }
                }
                return out;
            }
            default: { // duplicate a span
                int length = Math.min(input.length - at, 1 + random.nextInt(40));
                return insert(input, at, Arrays.copyOfRange(input, at, at + length));
            }
        }
    }

    private static byte[] insert(byte[] input, int at, byte[] fragment) {
        byte[] out = new byte[input.length + fragment.length];
        System.arraycopy(input, 0, out, 0, at);
        System.arraycopy(fragment, 0, out, at, fragment.length);
        System.arraycopy(input, at, out, at + fragment.length, input.length - at);
        return out;
    }
}
