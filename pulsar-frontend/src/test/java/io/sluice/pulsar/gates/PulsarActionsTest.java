package io.sluice.pulsar.gates;

import io.sluice.limits.OnExceed;
import io.sluice.relay.Throttling;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** What each limit action means for a Pulsar send, a held send and consumer permits. */
class PulsarActionsTest {

    @Test
    void aSendIsHeldRefusedOrLetThroughWithANoticeForAClientThatHeedsThem() {
        assertEquals(Throttling.HOLD, PulsarActions.send(OnExceed.DELAY, true));
        assertEquals(Throttling.REFUSE, PulsarActions.send(OnExceed.REJECT, true));
        assertEquals(Throttling.REFUSE, PulsarActions.send(OnExceed.REJECT, false));
        assertEquals(Throttling.PAUSE_CLIENT, PulsarActions.send(OnExceed.NOTIFY, true));
    }

    @Test
    void notifyIsDelayForAClientWithoutTheFlagOrThatMissedAReceipt() {
        assertEquals(Throttling.HOLD, PulsarActions.send(OnExceed.NOTIFY, false));
        assertEquals(Throttling.HOLD, PulsarActions.send(OnExceed.DELAY, false));
    }

    @Test
    void aHeldSendStaysHeldUnlessTheLimitTurnedToReject() {
        assertEquals(Throttling.HOLD, PulsarActions.heldSend(OnExceed.DELAY));
        assertEquals(Throttling.HOLD, PulsarActions.heldSend(OnExceed.NOTIFY));
        assertEquals(Throttling.REFUSE, PulsarActions.heldSend(OnExceed.REJECT));
    }

    @Test
    void permitsAreWithheldWhateverTheActionAndThatIsADelay() {
        for (OnExceed action : OnExceed.values()) {
            assertEquals(Throttling.HOLD, PulsarActions.permits(action), action.jsonName());
        }
        assertEquals(OnExceed.DELAY, Throttling.HOLD.action());
    }

    @Test
    void aRefusedSendIsANotAllowedErrorWhichStockClientsSurfaceForThatMessageAlone() {
        assertEquals("NotAllowedError", PulsarActions.REFUSAL.name());
    }
}
