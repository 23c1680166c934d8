package io.sluice.limits;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.sluice.settings.InvalidSettingsException;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Arbitrary bytes as a limits document, a single limit and connection limits: each parses or is
 * rejected with {@link InvalidSettingsException}, never another exception, and what parses survives
 * writing and reading back unchanged. Seeds: {@code LimitsParserFuzzTestInputs/parse}. The
 * seeded mutation loop of {@link LimitsJsonFuzzTest} covers generated inputs in every build.
 */
class LimitsParserFuzzTest {

    @FuzzTest(maxDuration = "10m")
    void parse(byte[] json) {
        try {
            LimitsDocument document = LimitsJson.parseDocument(json, TestScopes.CATALOGUE);
            assertEquals(
                    document,
                    LimitsJson.parseDocument(LimitsJson.write(document, TestScopes.CATALOGUE), TestScopes.CATALOGUE));
        } catch (InvalidSettingsException expected) {
            // Rejected with a message naming the field.
        }
        try {
            Limit limit = LimitsJson.parseLimit(json);
            assertEquals(limit, LimitsJson.parseLimit(LimitsJson.write(limit)));
        } catch (InvalidSettingsException expected) {
            // Rejected with a message naming the field.
        }
        try {
            ConnectionLimits limits = LimitsJson.parseConnection(json);
            assertEquals(limits, LimitsJson.parseConnection(LimitsJson.write(limits)));
        } catch (InvalidSettingsException expected) {
            // Rejected with a message naming the field.
        }
    }
}
