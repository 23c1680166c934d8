package io.sluice.kafka.gates;

import io.sluice.limits.OnExceed;
import io.sluice.relay.Throttling;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.EnumSource;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** What each limit action means for a partition of a Kafka Produce request or Fetch response. */
class KafkaActionsTest {

    @ParameterizedTest(name = "{0}, Produce v{1} -> {2}")
    @CsvSource({
        "DELAY, 5, RETRY",
        "DELAY, 6, RETRY",
        "REJECT, 5, REFUSE",
        "REJECT, 6, REFUSE",
        "NOTIFY, 5, RETRY",
        "NOTIFY, 6, PAUSE_CLIENT"
    })
    void aProducedPartitionIsBouncedRefusedOrLetThroughWithAThrottleTimeFromVersion6(
            OnExceed action, short version, Throttling taken) {
        assertEquals(taken, KafkaActions.produce(action, version));
    }

    @ParameterizedTest
    @EnumSource(OnExceed.class)
    void acksZeroIsHeldWhateverTheAction(OnExceed action) {
        assertEquals(Throttling.HOLD, KafkaActions.produceWithoutResponse(action));
    }

    @ParameterizedTest(name = "{0}, Fetch v{1} -> {2}")
    @CsvSource({"DELAY, 8, HOLD", "REJECT, 8, HOLD", "NOTIFY, 7, HOLD", "NOTIFY, 8, PAUSE_CLIENT"})
    void aFetchedPartitionIsCutUnlessNotifyFromVersion8(OnExceed action, short version, Throttling taken) {
        assertEquals(taken, KafkaActions.fetch(action, version));
    }

    @Test
    void aBouncedPartitionIsRetriableAndARefusedOneAPolicyViolation() {
        assertEquals("REQUEST_TIMED_OUT", KafkaActions.RETRY_ERROR.name());
        assertEquals("POLICY_VIOLATION", KafkaActions.REFUSAL_ERROR.name());
    }
}
