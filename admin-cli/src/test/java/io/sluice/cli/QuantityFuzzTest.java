package io.sluice.cli;

import com.code_intelligence.jazzer.junit.FuzzTest;

import java.nio.charset.StandardCharsets;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Arbitrary bytes, as UTF-8 text, as a quantity: it parses to a finite number that is not negative (or to
 * "unlimited"), or it is refused with {@link IllegalArgumentException} quoting it; never another
 * exception. Whatever parses reads back from the CLI's own table format within the rounding of
 * that format. Seeds: {@code QuantityFuzzTestInputs/parse}.
 */
class QuantityFuzzTest {

    @FuzzTest(maxDuration = "5m")
    void parse(byte[] input) {
        String text = new String(input, StandardCharsets.UTF_8);
        double value;
        try {
            value = Quantity.parse(text);
        } catch (IllegalArgumentException refused) {
            assertTrue(refused.getMessage().contains("'" + text + "'"), refused.getMessage());
            return;
        }
        if (Double.isNaN(value)) {
            return;
        }
        assertTrue(value >= 0 && !Double.isInfinite(value), text + " -> " + value);
        if (value >= 1 && value < 1e15) {
            assertEquals(value, Quantity.parse(Quantity.bytes(value)), value * 0.05, Quantity.bytes(value));
            assertEquals(value, Quantity.parse(Quantity.count(value)), value * 0.05, Quantity.count(value));
        }
    }
}
