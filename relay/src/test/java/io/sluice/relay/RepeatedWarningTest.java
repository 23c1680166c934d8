package io.sluice.relay;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;

class RepeatedWarningTest {

    private final AtomicLong now = new AtomicLong(1_000);
    private final RepeatedWarning warning = new RepeatedWarning(now::get, Duration.ofSeconds(10));

    @Test
    void oneLinePerTenSecondsSayingHowManyWereLeftOut() {
        assertEquals(0, warning.admit(), "the first is logged");
        for (int i = 0; i < 999; i++) {
            now.addAndGet(Duration.ofMillis(10).toNanos());
            assertEquals(-1, warning.admit(), "within ten seconds of the last line");
        }
        now.addAndGet(Duration.ofMillis(10).toNanos());

        assertEquals(999, warning.admit(), "ten seconds on: logged, with the count left out");
        assertEquals(-1, warning.admit());
        assertEquals(" (and 999 more like it since the last one logged)", RepeatedWarning.leftOut(999));
        assertEquals("", RepeatedWarning.leftOut(0));
    }

    @Test
    void eachReasonHasItsOwnInterval() {
        RepeatedWarning.PerReason reasons = new RepeatedWarning.PerReason();

        assertEquals(0, reasons.admit("frame_too_large"));
        assertEquals(0, reasons.admit("bad_length"));
        assertEquals(-1, reasons.admit("frame_too_large"));
    }
}
