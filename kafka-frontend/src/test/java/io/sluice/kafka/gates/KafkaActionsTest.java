package io.sluice.kafka.gates;

import io.sluice.limits.OnExceed;
import io.sluice.relay.Throttling;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** What each limit action means for a partition of a Kafka Produce request or Fetch response. */
class KafkaActionsTest {

    private static final short PRODUCE_V5 = 5;
    private static final short PRODUCE_V6 = 6;
    private static final short FETCH_V7 = 7;
    private static final short FETCH_V8 = 8;

    @Test
    void aProducedPartitionIsBouncedForARetryRefusedOrLetThroughWithAThrottleTime() {
        assertEquals(Throttling.RETRY, KafkaActions.produce(OnExceed.DELAY, PRODUCE_V6));
        assertEquals(Throttling.REFUSE, KafkaActions.produce(OnExceed.REJECT, PRODUCE_V6));
        assertEquals(Throttling.REFUSE, KafkaActions.produce(OnExceed.REJECT, PRODUCE_V5));
        assertEquals(Throttling.PAUSE_CLIENT, KafkaActions.produce(OnExceed.NOTIFY, PRODUCE_V6));
    }

    @Test
    void notifyIsDelayForProduceBeforeVersion6() {
        assertEquals(Throttling.RETRY, KafkaActions.produce(OnExceed.NOTIFY, PRODUCE_V5));
        assertEquals(OnExceed.DELAY, Throttling.RETRY.action());
    }

    @Test
    void acksZeroIsHeldWhateverTheAction() {
        for (OnExceed action : OnExceed.values()) {
            assertEquals(Throttling.HOLD, KafkaActions.produceWithoutResponse(action), action.jsonName());
        }
    }

    @Test
    void aFetchedPartitionIsCutUnlessNotifyFromVersion8() {
        assertEquals(Throttling.HOLD, KafkaActions.fetch(OnExceed.DELAY, FETCH_V8));
        assertEquals(Throttling.HOLD, KafkaActions.fetch(OnExceed.REJECT, FETCH_V8));
        assertEquals(Throttling.HOLD, KafkaActions.fetch(OnExceed.NOTIFY, FETCH_V7));
        assertEquals(Throttling.PAUSE_CLIENT, KafkaActions.fetch(OnExceed.NOTIFY, FETCH_V8));
        assertEquals(OnExceed.DELAY, Throttling.HOLD.action());
    }

    @Test
    void theAnswersSayTheyAreSluicesAndNameTheLimit() {
        assertEquals("REQUEST_TIMED_OUT", KafkaActions.RETRY_ERROR.name());
        assertEquals("POLICY_VIOLATION", KafkaActions.REFUSAL_ERROR.name());
    }
}
