package io.sluice.pulsar.gates;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ResourceRegistryTest {

    private record Entry(long id, String topic) {}

    private final ResourceRegistry<Entry> producers = new ResourceRegistry<>(Entry::new);

    @Test
    void aProducerIsKnownOnlyOnceTheBrokerAcceptsIt() {
        producers.requested(10, 1, "persistent://t/n/a");
        assertNull(producers.get(1), "not before PRODUCER_SUCCESS");
        assertEquals(1, producers.pendingCount());

        Entry state = producers.succeeded(10);

        assertEquals("persistent://t/n/a", state.topic());
        assertSame(state, producers.get(1));
        assertEquals(0, producers.pendingCount());
    }

    @Test
    void atTheMostPerConnectionItIsFullUntilOneCloses() {
        for (long id = 0; id < ResourceRegistry.MAX_PER_CONNECTION; id++) {
            assertFalse(producers.isFull());
            producers.requested(id, id, "persistent://t/n/a");
            if (id % 2 == 0) {
                producers.succeeded(id);
            }
        }
        assertTrue(producers.isFull(), "requested and active count alike");
        assertEquals(ResourceRegistry.MAX_PER_CONNECTION / 2, producers.activeCount());

        producers.closed(0);
        assertFalse(producers.isFull());
        producers.failed(1);
        producers.requested(
                ResourceRegistry.MAX_PER_CONNECTION, ResourceRegistry.MAX_PER_CONNECTION, "persistent://t/n/a");
        assertFalse(producers.isFull(), "a refused request frees its place");
    }

    @Test
    void aRepeatedSuccessForOneRequestKeepsTheSameState() {
        producers.requested(10, 1, "persistent://t/n/a");
        Entry first = producers.succeeded(10);
        assertNull(producers.succeeded(10), "producer_ready=false then true answers twice");
        assertSame(first, producers.get(1));
    }

    @Test
    void anErrorForTheRequestLeavesNothingBehind() {
        producers.requested(10, 1, "persistent://t/n/a");
        assertEquals(1, producers.failed(10));
        assertNull(producers.succeeded(10));
        assertNull(producers.get(1));
        assertFalse(producers.isPending(1));
        assertEquals(-1, producers.failed(99), "errors for other requests are not ours");
    }

    @Test
    void closeFromEitherSideRemovesTheProducerAndAnyRequestForIt() {
        producers.requested(10, 1, "persistent://t/n/a");
        producers.succeeded(10);
        producers.requested(11, 2, "persistent://t/n/b");

        assertEquals("persistent://t/n/a", producers.closed(1).topic());
        assertNull(producers.closed(2), "pending only");
        assertNull(producers.succeeded(11), "a success after the close is ignored");
        assertNull(producers.get(1));
        assertNull(producers.get(2));
    }

    @Test
    void anIdReusedForAnotherTopicAfterReconnectMapsToTheNewTopic() {
        producers.requested(10, 1, "persistent://t/n/a");
        producers.succeeded(10);
        producers.closed(1);
        producers.requested(20, 1, "persistent://t/n/b");
        producers.succeeded(20);
        assertEquals("persistent://t/n/b", producers.get(1).topic());
    }

    @Test
    void aRepeatedRequestForAnActiveIdKeepsItsFirstTopicAsTheBrokerDoes() {
        producers.requested(10, 1, "persistent://t/n/limited");
        Entry first = producers.succeeded(10);
        producers.requested(11, 1, "persistent://t/n/free");

        assertNull(producers.succeeded(11), "the broker's success confirms the producer it has");
        assertSame(first, producers.get(1));
        assertEquals("persistent://t/n/limited", producers.get(1).topic());
        assertEquals(0, producers.pendingCount());
    }

    @Test
    void clearHandsBackEveryActiveProducer() {
        for (int i = 0; i < 100; i++) {
            producers.requested(i, i, "persistent://t/n/" + i);
            producers.succeeded(i);
        }
        producers.requested(500, 500, "persistent://t/n/x");
        assertEquals(100, producers.clear().size());
        assertEquals(0, producers.activeCount());
        assertEquals(0, producers.pendingCount());
    }

    @Test
    void aProducerIsTrackedByItsIdFromTheMomentItsRequestIsForwarded() {
        producers.requested(77, 1, "persistent://t/n/limited");
        assertTrue(producers.isPending(1));
        assertTrue(producers.isRequestPending(77), "a second request 77 must not be forwarded");
        assertFalse(producers.isPending(2));
        assertEquals("persistent://t/n/limited", producers.succeeded(77).topic());
        assertFalse(producers.isPending(1));
        assertFalse(producers.isRequestPending(77));
    }

    @Test
    void aRequestForAnActiveIdDoesNotMakeItPending() {
        producers.requested(10, 1, "persistent://t/n/a");
        producers.succeeded(10);
        producers.requested(11, 1, "persistent://t/n/b");
        assertFalse(producers.isPending(1));
        assertTrue(producers.isRequestPending(11));
    }

    @Test
    void theLastClosedIdsAreRememberedUntilTheyAreRequestedAgain() {
        for (int id = 0; id < ResourceRegistry.RECENTLY_CLOSED + 1; id++) {
            producers.requested(id, id, "persistent://t/n/a");
            producers.succeeded(id);
            producers.closed(id);
        }
        assertFalse(producers.isRecentlyClosed(0), "the oldest is forgotten");
        assertTrue(producers.isRecentlyClosed(1));
        assertTrue(producers.isRecentlyClosed(ResourceRegistry.RECENTLY_CLOSED));
        producers.requested(100, 1, "persistent://t/n/a");
        assertFalse(producers.isRecentlyClosed(1), "pending again");
    }
}
