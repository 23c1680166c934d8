package io.sluice.relay;

import io.sluice.limits.OnExceed;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** What a gate did is recorded as the action it is, whatever the limit asked for. */
class ThrottlingTest {

    @ParameterizedTest(name = "{0} is recorded as {1}")
    @CsvSource({"HOLD, DELAY", "RETRY, DELAY", "REFUSE, REJECT", "PAUSE_CLIENT, NOTIFY"})
    void eachIsRecordedAsTheActionItIs(Throttling taken, OnExceed recorded) {
        assertEquals(recorded, taken.action());
    }
}
