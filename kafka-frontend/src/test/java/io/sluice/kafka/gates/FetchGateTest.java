package io.sluice.kafka.gates;

import io.netty.buffer.ByteBuf;
import io.sluice.kafka.gates.GateHarness.Forwarded;
import io.sluice.kafka.scopes.KafkaScopes;
import io.sluice.kafka.testing.KafkaFrames;
import io.sluice.kafka.testing.RecordFrames;
import io.sluice.kafka.testing.RecordFrames.Part;
import io.sluice.limits.Limit;
import io.sluice.limits.OnExceed;
import io.sluice.limits.ScopeRef;
import io.sluice.status.ThrottledClient;
import io.sluice.testing.LeakCheck;
import org.apache.kafka.common.message.FetchRequestData;
import org.apache.kafka.common.message.FetchResponseData;
import org.apache.kafka.common.record.internal.MemoryRecords;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The fetch gate against a fake clock and an in-memory connection: trimming at batch boundaries,
 * the topics fetched alongside, the next fetch held after a response cut to nothing, notify, and
 * the rate a consumer gets over time.
 */
@ExtendWith(LeakCheck.class)
class FetchGateTest {

    private static final short V = 12;
    private static final String SLOW = "slow";
    private static final String FAST = "fast";
    private static final ScopeRef SLOW_TOPIC = new ScopeRef(KafkaScopes.TOPIC, SLOW);
    private static final int MAX_WAIT = 500;

    private final GateHarness harness = new GateHarness();
    private int correlationId;

    @AfterEach
    void closeAll() {
        harness.close();
    }

    private static Limit records(double perSecond, OnExceed onExceed) {
        return GateHarness.records(false, perSecond, onExceed);
    }

    private void fetch(short version) {
        FetchRequestData request =
                new FetchRequestData().setMaxWaitMs(MAX_WAIT).setMinBytes(1).setReplicaId(-1);
        harness.request(KafkaFrames.request(request, version, ++correlationId, GateHarness.CLIENT_ID));
    }

    /** Fetches once, the broker answering with {@code parts}; what the client gets. */
    private FetchResponseData fetchAndAnswer(short version, Part... parts) {
        fetch(version);
        Forwarded request = harness.takeForwarded();
        return RecordFrames.readFetch(harness.respond(request, RecordFrames.fetch(version, parts)), version);
    }

    private static List<Integer> batchCounts(FetchResponseData data, int topic, int partition) {
        return RecordFrames.batchCounts((MemoryRecords)
                data.responses().get(topic).partitions().get(partition).records());
    }

    private static Part part(String topic, int partition, MemoryRecords records) {
        return new Part(topic, null, partition, records);
    }

    @Test
    void anUnlimitedResponsePassesAsItCameAndIsCounted() {
        fetch(V);
        Forwarded request = harness.takeForwarded();
        request.frame().release();
        ByteBuf response =
                RecordFrames.fetchResponse(V, request.correlationId(), part(FAST, 0, RecordFrames.batches(0, 3, 4)));
        ByteBuf out = harness.complete(request, response);
        assertSame(response, out);
        out.release();
        assertEquals(7, harness.activity.meter("kafka", FAST).dispatchMessages());
    }

    @Test
    void aThrottledPartitionIsCutAtABatchBoundaryAndTheOthersGoWhole() {
        harness.limit(SLOW_TOPIC, records(10, OnExceed.DELAY));
        FetchResponseData data = fetchAndAnswer(
                V, part(SLOW, 0, RecordFrames.batches(0, 6, 6, 6)), part(FAST, 0, RecordFrames.batches(0, 50, 50)));
        assertEquals(
                List.of(6, 6),
                batchCounts(data, 0, 0),
                "admitted while the bucket is positive: 6, then 6 more, then no more");
        assertEquals(List.of(50, 50), batchCounts(data, 1, 0));
        assertEquals(12, harness.activity.meter("kafka", SLOW).dispatchMessages(), "what the client got");
        ThrottledClient throttle = harness.throttled().get(0);
        assertEquals("dispatch_messages", throttle.reason());
        assertEquals("delay", throttle.action());
        assertEquals(SLOW, throttle.topic());
        assertEquals("app", throttle.identity().get("clientId"));
        assertEquals("kafka", throttle.protocol());
    }

    @Test
    void afterAResponseCutToNothingTheNextFetchWaitsForTheBucketNotLongerThanItsMaxWait() {
        harness.limit(SLOW_TOPIC, records(10, OnExceed.DELAY));
        fetchAndAnswer(V, part(SLOW, 0, RecordFrames.batches(0, 12)));
        FetchResponseData nothing = fetchAndAnswer(V, part(SLOW, 0, RecordFrames.batches(12, 5)));
        assertEquals(0, nothing.responses().get(0).partitions().get(0).records().sizeInBytes());

        fetch(V);
        assertTrue(harness.forwarded.isEmpty(), "it would come straight back empty: a loop");
        assertTrue(harness.paused, "and nothing behind it may overtake it");
        harness.advance(199);
        assertTrue(harness.forwarded.isEmpty());
        harness.advance(2);
        assertEquals(1, harness.forwarded.size(), "sent once the bucket is positive again (two records owed at 10/s)");
        assertFalse(harness.paused);
        FetchResponseData data = RecordFrames.readFetch(
                harness.respond(
                        harness.takeForwarded(), RecordFrames.fetch(V, part(SLOW, 0, RecordFrames.batches(12, 5)))),
                V);
        assertEquals(List.of(5), batchCounts(data, 0, 0));
    }

    @Test
    void aFetchIsNeverHeldLongerThanItsMaxWait() {
        harness.limit(SLOW_TOPIC, records(1, OnExceed.DELAY));
        fetchAndAnswer(V, part(SLOW, 0, RecordFrames.batches(0, 10)));
        fetchAndAnswer(V, part(SLOW, 0, RecordFrames.batches(10, 1)));
        fetch(V);
        harness.advance(MAX_WAIT - 1);
        assertTrue(harness.forwarded.isEmpty());
        harness.advance(1);
        assertEquals(1, harness.forwarded.size(), "the bucket needs ten seconds; the client allows for max_wait_ms");
    }

    @Test
    void notifyForwardsEverythingAndRaisesTheThrottleTimeFromVersion8() {
        harness.limit(SLOW_TOPIC, records(10, OnExceed.NOTIFY));
        FetchResponseData data = fetchAndAnswer(V, part(SLOW, 0, RecordFrames.batches(0, 10, 10)));
        assertEquals(List.of(10, 10), batchCounts(data, 0, 0));
        assertTrue(
                data.throttleTimeMs() >= 1_000, "twenty records at 10/s: a second of debt: " + data.throttleTimeMs());
        assertTrue(harness.paused, "muted meanwhile");
        assertEquals("notify", harness.throttled().get(0).action());

        harness.advance(5_000);
        assertFalse(harness.paused);
        short v7 = 7;
        fetchAndAnswer(v7, part(SLOW, 0, RecordFrames.batches(20, 30)));
        FetchResponseData cut = fetchAndAnswer(v7, part(SLOW, 0, RecordFrames.batches(50, 30)));
        assertEquals(List.of(), batchCounts(cut, 0, 0), "before v8 the client would not heed it: delay");
        assertEquals(0, cut.throttleTimeMs());
    }

    @ParameterizedTest
    @CsvSource({"REJECT, 12", "NOTIFY, 7"})
    void rejectAndNotifyBeforeVersion8AreCutAsDelayIsAndRecordedAsTheDelayTheyAre(OnExceed action, short version) {
        harness.limit(SLOW_TOPIC, records(10, action));
        FetchResponseData data = fetchAndAnswer(version, part(SLOW, 0, RecordFrames.batches(0, 6, 6, 6)));
        assertEquals(List.of(6, 6), batchCounts(data, 0, 0), "cut at a batch boundary");
        assertEquals(0, data.throttleTimeMs());
        assertFalse(harness.paused);
        assertEquals("delay", harness.throttled().get(0).action());
    }

    @Test
    void aThrottledConsumerGetsTheRateOverTimeAndTheOtherTopicAllItAsks() {
        harness.limit(SLOW_TOPIC, records(100, OnExceed.DELAY));
        long slowOffset = 0;
        long fastOffset = 0;
        long deadline = harness.loop.clockNanos() + 10_000_000_000L;
        while (harness.loop.clockNanos() - deadline < 0) {
            fetch(V);
            while (harness.forwarded.isEmpty()) {
                harness.advance(1);
            }
            Forwarded request = harness.takeForwarded();
            FetchResponseData data = RecordFrames.readFetch(
                    harness.respond(
                            request,
                            RecordFrames.fetch(
                                    V,
                                    part(SLOW, 0, RecordFrames.batches(slowOffset, 7, 7, 7, 7)),
                                    part(FAST, 0, RecordFrames.batches(fastOffset, 7)))),
                    V);
            slowOffset +=
                    batchCounts(data, 0, 0).stream().mapToInt(Integer::intValue).sum();
            fastOffset +=
                    batchCounts(data, 1, 0).stream().mapToInt(Integer::intValue).sum();
            harness.advance(2);
        }
        // 100/s for 10 s plus the one-second burst, give or take the batch that overshoots.
        assertEquals(1_100, slowOffset, 11);
        assertTrue(fastOffset > 20 * slowOffset, "the other topic is never held back: " + fastOffset);
    }
}
