package io.sluice.pulsar.gates;

import io.sluice.limits.OnExceed;
import io.sluice.relay.Throttling;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.EnumSource;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** What each limit action means for a Pulsar send, a held send and consumer permits. */
class PulsarActionsTest {

    @ParameterizedTest(name = "{0}, the client heeds notices: {1} -> {2}")
    @CsvSource({
        "DELAY, true, HOLD",
        "DELAY, false, HOLD",
        "REJECT, true, REFUSE",
        "REJECT, false, REFUSE",
        "NOTIFY, true, PAUSE_CLIENT",
        "NOTIFY, false, HOLD"
    })
    void aSendIsHeldRefusedOrLetThroughWithANoticeForAClientThatHeedsThem(
            OnExceed action, boolean clientHeedsNotices, Throttling taken) {
        assertEquals(taken, PulsarActions.send(action, clientHeedsNotices));
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource({"DELAY, HOLD", "REJECT, REFUSE", "NOTIFY, HOLD"})
    void aHeldSendStaysHeldUnlessTheLimitTurnedToReject(OnExceed action, Throttling taken) {
        assertEquals(taken, PulsarActions.heldSend(action));
    }

    @ParameterizedTest
    @EnumSource(OnExceed.class)
    void permitsAreWithheldWhateverTheAction(OnExceed action) {
        assertEquals(Throttling.HOLD, PulsarActions.permits(action));
    }

    @Test
    void aRefusedSendIsANotAllowedErrorWhichStockClientsSurfaceForThatMessageAlone() {
        assertEquals("NotAllowedError", PulsarActions.REFUSAL.name());
    }
}
