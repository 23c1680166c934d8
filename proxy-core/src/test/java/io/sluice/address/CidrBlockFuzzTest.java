package io.sluice.address;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.sluice.settings.InvalidSettingsException;

import java.nio.charset.StandardCharsets;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Arbitrary text as a CIDR block: it parses or is rejected with {@link InvalidSettingsException},
 * never another exception, and what parses reads back from its canonical form as itself. Seeds:
 * {@code CidrBlockFuzzTestInputs/parse}; {@link CidrBlockTest#mutatedTextParsesOrIsRefused} runs a
 * seeded mutation loop in every build.
 */
class CidrBlockFuzzTest {

    @FuzzTest(maxDuration = "10m")
    void parse(byte[] text) {
        CidrBlockTest.parsesOrIsRefused(new String(text, StandardCharsets.UTF_8));
    }

    static void roundTrips(CidrBlock block) {
        assertEquals(block, CidrBlock.parse(block.toString()));
        assertEquals(block.toString(), CidrBlock.parse(block.toString()).toString());
    }
}
