package io.sluice.kafka.codec;

import io.sluice.relay.MalformedFrameException;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class InFlightRequestsTest {

    @Test
    void answersRequestsOldestFirstAcrossTheRingsWrap() {
        InFlightRequests<String> inFlight = new InFlightRequests<>(3);
        int next = 0;
        for (int round = 0; round < 10; round++) {
            inFlight.add((short) 0, (short) 11, next, 1_000L * next, "request " + next);
            inFlight.add((short) 3, (short) 12, next + 1, 1_000L * (next + 1), "request " + (next + 1));
            for (int i = 0; i < 2; i++) {
                inFlight.expect(next);
                assertEquals(next, inFlight.oldestCorrelationId());
                assertEquals(i == 0 ? 0 : 3, inFlight.oldestApiKey());
                assertEquals(i == 0 ? 11 : 12, inFlight.oldestApiVersion());
                assertEquals("request " + next, inFlight.oldestContext());
                assertEquals(1_000L * next, inFlight.oldestSentAtNanos());
                inFlight.removeOldest();
                next++;
            }
        }
        assertTrue(inFlight.isEmpty());
    }

    @Test
    void refusesAResponseThatIsNotTheOldestRequests() {
        InFlightRequests<Void> inFlight = new InFlightRequests<>(4);
        MalformedFrameException none = assertThrows(MalformedFrameException.class, () -> inFlight.expect(1));
        assertEquals("unexpected_response", none.reason());
        inFlight.add((short) 0, (short) 11, 1, 0, null);
        inFlight.add((short) 0, (short) 11, 2, 0, null);
        MalformedFrameException outOfOrder = assertThrows(MalformedFrameException.class, () -> inFlight.expect(2));
        assertEquals("unexpected_response", outOfOrder.reason());
        inFlight.expect(1);
    }

    @Test
    void closesAConnectionThatPipelinesPastTheCapacity() {
        InFlightRequests<Void> inFlight = new InFlightRequests<>(2);
        inFlight.add((short) 1, (short) 17, 1, 0, null);
        inFlight.add((short) 1, (short) 17, 2, 0, null);
        MalformedFrameException e =
                assertThrows(MalformedFrameException.class, () -> inFlight.add((short) 1, (short) 17, 3, 0, null));
        assertEquals("too_many_in_flight", e.reason());
        assertEquals(2, inFlight.size());
        inFlight.removeOldest();
        inFlight.add((short) 1, (short) 17, 3, 0, null);
        assertEquals(2, inFlight.oldestCorrelationId());
    }

    @Test
    void hasNoOldestWhenEmpty() {
        InFlightRequests<Void> inFlight = new InFlightRequests<>(1);
        assertThrows(IllegalStateException.class, inFlight::removeOldest);
        assertThrows(IllegalStateException.class, inFlight::oldestApiKey);
        assertThrows(IllegalArgumentException.class, () -> new InFlightRequests<Void>(0));
    }
}
