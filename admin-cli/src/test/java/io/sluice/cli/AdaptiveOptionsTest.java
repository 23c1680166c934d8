package io.sluice.cli;

import com.code_intelligence.jazzer.junit.FuzzTest;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** How {@code --adaptive-target} and {@code --adaptive-floor} are read, and that nothing else gets through. */
class AdaptiveOptionsTest {

    @Test
    void aLatencyInMillisecondsOrSecondsABareNumberBeingMilliseconds() {
        assertEquals(20, AdaptiveOptions.latencyMillis("20ms"));
        assertEquals(500, AdaptiveOptions.latencyMillis("0.5s"));
        assertEquals(7.5, AdaptiveOptions.latencyMillis("7.5"));
        assertEquals(20, AdaptiveOptions.latencyMillis(" 20 ms "));
    }

    @Test
    void aFractionAsAPercentageOrANumber() {
        assertEquals(0.05, AdaptiveOptions.fraction("5%"), 1e-12);
        assertEquals(0.05, AdaptiveOptions.fraction("0.05"), 1e-12);
        assertEquals(1, AdaptiveOptions.fraction("100%"), 1e-12);
    }

    @Test
    void anythingElseIsAUsageErrorQuotingIt() {
        CliFailure target = assertThrows(CliFailure.class, () -> AdaptiveOptions.latencyMillis("20 minutes"));
        assertTrue(target.getMessage().contains("'20 minutes'"), target.getMessage());
        assertThrows(CliFailure.class, () -> AdaptiveOptions.latencyMillis("-5ms"));
        assertThrows(CliFailure.class, () -> AdaptiveOptions.fraction("five percent"));
        assertThrows(CliFailure.class, () -> AdaptiveOptions.fraction("1e-3"));
    }

    /** Arbitrary text is read to a finite number that is not negative, or refused as a usage error; nothing else. */
    @FuzzTest(maxDuration = "5m")
    void anyText(byte[] input) {
        String text = new String(input, StandardCharsets.UTF_8);
        for (boolean latency : new boolean[] {true, false}) {
            try {
                double value = latency ? AdaptiveOptions.latencyMillis(text) : AdaptiveOptions.fraction(text);
                assertTrue(value >= 0 && !Double.isInfinite(value), text + " -> " + value);
            } catch (CliFailure refused) {
                assertTrue(refused.getMessage().contains("'" + text + "'"), refused.getMessage());
            }
        }
    }
}
