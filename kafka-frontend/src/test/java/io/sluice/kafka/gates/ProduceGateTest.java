package io.sluice.kafka.gates;

import io.netty.buffer.ByteBuf;
import io.sluice.kafka.connection.KafkaSettings;
import io.sluice.kafka.gates.GateHarness.Answer;
import io.sluice.kafka.gates.GateHarness.Forwarded;
import io.sluice.kafka.scopes.KafkaNames;
import io.sluice.kafka.scopes.KafkaScopes;
import io.sluice.kafka.testing.KafkaFrames;
import io.sluice.kafka.testing.RecordFrames;
import io.sluice.kafka.testing.RecordFrames.Part;
import io.sluice.limits.ConnectionLimits;
import io.sluice.limits.Limit;
import io.sluice.limits.OnExceed;
import io.sluice.limits.ScopeRef;
import io.sluice.status.DelayHistogram;
import io.sluice.status.ThrottledClient;
import io.sluice.testing.LeakCheck;
import io.sluice.testing.ManualEventLoop;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.message.ProduceRequestData;
import org.apache.kafka.common.message.ProduceResponseData;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.record.internal.MemoryRecords;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The produce gate against a fake clock and an in-memory connection: each action per partition,
 * the response that mirrors the request, sequence gaps of idempotent producers, {@code acks=0},
 * the scopes, what {@code /api/v1/throttled} shows, and closing with batches held.
 */
@ExtendWith(LeakCheck.class)
class ProduceGateTest {

    private static final short V = 11;
    private static final short ALL = -1;
    private static final String SLOW = "slow";
    private static final String FAST = "fast";
    private static final ScopeRef SLOW_TOPIC = new ScopeRef(KafkaScopes.TOPIC, SLOW);
    private static final long PRODUCER = 4000;
    private static final short EPOCH = 0;

    private final GateHarness harness = new GateHarness();
    private final KafkaGates gates = harness.gates;
    private int correlationId;

    @AfterEach
    void closeAll() {
        harness.close();
    }

    private static Limit records(double perSecond, OnExceed onExceed) {
        return GateHarness.records(true, perSecond, onExceed);
    }

    private void produce(short version, short acks, Part... parts) {
        harness.request(RecordFrames.produceRequest(version, acks, ++correlationId, GateHarness.CLIENT_ID, parts));
    }

    /** Limits {@link #SLOW} to 10 records a second, {@code onExceed}, and spends the burst on partition 0. */
    private void exhaustSlow(OnExceed onExceed, Part burst) {
        harness.limit(SLOW_TOPIC, records(10, onExceed));
        produce(burst);
        respond(harness.takeForwarded());
    }

    private void produce(Part... parts) {
        produce(V, ALL, parts);
    }

    private static Part part(String topic, int partition, int records) {
        return new Part(topic, null, partition, RecordFrames.batch(records, 10));
    }

    private static Part idempotent(String topic, int partition, int sequence, int records) {
        return new Part(topic, null, partition, RecordFrames.idempotent(PRODUCER, EPOCH, sequence, records, 10));
    }

    /** The partitions of a forwarded request, as the broker reads them: {@code topic-partition}. */
    private static List<String> partitions(Forwarded request) {
        List<String> names = new ArrayList<>();
        for (ProduceRequestData.TopicProduceData topic :
                RecordFrames.readProduce(request.frame(), request.version()).topicData()) {
            topic.partitionData().forEach(p -> names.add(topic.name() + "-" + p.index()));
        }
        return names;
    }

    /** Has the broker answer {@code request}; what the client gets, as {@code topic-partition:ERROR}. */
    private List<String> respond(Forwarded request) {
        ProduceRequestData data = RecordFrames.readProduce(request.frame(), request.version());
        return outcomes(
                harness.respond(request, RecordFrames.produceResponse(data, request.version())), request.version());
    }

    private static List<String> outcomes(ByteBuf response, short version) {
        List<String> outcomes = new ArrayList<>();
        for (ProduceResponseData.TopicProduceResponse topic :
                RecordFrames.readProduceResponse(response, version).responses()) {
            topic.partitionResponses()
                    .forEach(p -> outcomes.add(topic.name() + "-" + p.index() + ":" + Errors.forCode(p.errorCode())));
        }
        return outcomes;
    }

    private static String message(ByteBuf response, short version, String topic, int partition) {
        return RecordFrames.readProduceResponse(response, version)
                .responses()
                .find(topic, Uuid.ZERO_UUID)
                .partitionResponses()
                .stream()
                .filter(p -> p.index() == partition)
                .findFirst()
                .orElseThrow()
                .errorMessage();
    }

    private ThrottledClient onlyThrottle() {
        List<ThrottledClient> throttled = harness.throttled();
        assertEquals(1, throttled.size(), "throttled: " + throttled);
        return throttled.get(0);
    }

    @Test
    void withinQuotaTheVeryRequestGoesAndItsResponsePassesUntouched() {
        harness.limit(SLOW_TOPIC, records(100, OnExceed.DELAY));
        ByteBuf frame =
                RecordFrames.produceRequest(V, ALL, 1, GateHarness.CLIENT_ID, part(SLOW, 0, 5), part(FAST, 0, 5));
        harness.request(frame);
        Forwarded request = harness.takeForwarded();
        assertSame(frame, request.lentFrom(), "the very buffer, not a copy");
        ByteBuf response = KafkaFrames.response(
                RecordFrames.produceResponse(RecordFrames.readProduce(request.frame(), V), V), V, 1);
        request.frame().release();
        ByteBuf out = harness.complete(request, response);
        assertSame(response, out);
        out.release();
        assertEquals(5, harness.activity.meter("kafka", SLOW).publishMessages());
        assertTrue(harness.throttled().isEmpty());
    }

    @Test
    void delayAnswersOnlyTheOverQuotaPartitionRetriablyAndForwardsTheRest() {
        exhaustSlow(OnExceed.DELAY, part(SLOW, 0, 10));

        produce(part(SLOW, 0, 5), part(FAST, 0, 5), part(FAST, 1, 5));
        Forwarded cut = harness.takeForwarded();
        assertEquals(List.of("fast-0", "fast-1"), partitions(cut), "the over-quota partition is not forwarded");
        ByteBuf response =
                harness.respond(cut, RecordFrames.produceResponse(RecordFrames.readProduce(cut.frame(), V), V));
        assertEquals(
                List.of("slow-0:REQUEST_TIMED_OUT", "fast-0:NONE", "fast-1:NONE"),
                outcomes(response, V),
                "the response names every partition of the request, in its order");
        String message = message(response, V, SLOW, 0);
        assertTrue(
                message.startsWith("Sluice delays this batch: throttled: topic slow exceeds 10.0 msg/s; retry after "),
                message);

        ThrottledClient throttle = onlyThrottle();
        assertEquals("kafka", throttle.protocol());
        assertEquals("app", throttle.identity().get("clientId"));
        assertEquals(SLOW, throttle.topic());
        assertEquals("topic", throttle.scope());
        assertEquals("publish_messages", throttle.reason());
        assertEquals("delay", throttle.action());
        assertEquals(10, harness.activity.meter("kafka", SLOW).publishMessages(), "only what was forwarded counts");

        harness.advance(1_000);
        produce(part(SLOW, 0, 5));
        assertEquals(
                List.of("slow-0:NONE"),
                respond(harness.takeForwarded()),
                "the retry goes through once the bucket refilled");
        assertTrue(harness.throttled().isEmpty(), "and the throttle is over");
    }

    /** Every request leaves the gate as one verdict, which the connection alone carries out; {@code acks=0} is a forward. */
    @Test
    void eachRequestLeavesTheGateAsOneVerdict() {
        exhaustSlow(OnExceed.DELAY, part(SLOW, 0, 10));
        produce(part(FAST, 0, 1));
        produce(part(SLOW, 0, 3), part(FAST, 0, 1));
        produce(part(SLOW, 0, 3));
        short none = 0;
        produce(V, none, part(FAST, 0, 1));
        produce(V, none, part(SLOW, 0, 3), part(FAST, 0, 1));
        produce(V, none, part(SLOW, 0, 3));
        assertEquals(
                List.of(
                        "FORWARD whole",
                        "FORWARD whole",
                        "FORWARD cut",
                        "ANSWER",
                        "FORWARD whole unanswered",
                        "FORWARD cut unanswered",
                        "HOLD"),
                harness.verdicts);
    }

    @Test
    void aRequestWhollyOverQuotaIsAnsweredBySluiceAlone() {
        exhaustSlow(OnExceed.DELAY, part(SLOW, 0, 10));
        produce(part(SLOW, 0, 3), part(SLOW, 1, 3));
        assertTrue(harness.forwarded.isEmpty());
        Answer answer = harness.answers.get(0);
        assertEquals(correlationId, answer.correlationId());
        assertEquals(List.of("slow-0:REQUEST_TIMED_OUT", "slow-1:REQUEST_TIMED_OUT"), outcomes(answer.frame(), V));
    }

    @Test
    void laterBatchesOfAnIdempotentProducerWaitBehindTheBouncedOne() {
        exhaustSlow(OnExceed.DELAY, idempotent(SLOW, 0, 0, 10));
        produce(idempotent(SLOW, 0, 10, 5), part(FAST, 0, 1));
        assertEquals(List.of("slow-0:REQUEST_TIMED_OUT", "fast-0:NONE"), respond(harness.takeForwarded()));

        // Already in flight when the client learnt of the bounce; the bucket would admit it by now.
        harness.advance(2_000);
        produce(idempotent(SLOW, 0, 15, 5), part(FAST, 0, 1));
        assertEquals(
                List.of("slow-0:REQUEST_TIMED_OUT", "fast-0:NONE"),
                respond(harness.takeForwarded()),
                "forwarded, it would meet OUT_OF_ORDER_SEQUENCE_NUMBER");

        produce(idempotent(SLOW, 0, 10, 5));
        assertEquals(List.of("slow-0:NONE"), respond(harness.takeForwarded()), "the awaited sequence goes");
        produce(idempotent(SLOW, 0, 15, 5));
        assertEquals(List.of("slow-0:NONE"), respond(harness.takeForwarded()), "then the ones behind it, in order");

        DelayHistogram delays = harness.ledger.delays().get("topic");
        assertEquals(1, Arrays.stream(delays.counts()).sum(), "one delayed batch");
        assertEquals(2.0, delays.sumSeconds(), 1e-6);
    }

    @Test
    void aNewEpochEndsTheGap() {
        exhaustSlow(OnExceed.DELAY, idempotent(SLOW, 0, 0, 10));
        produce(idempotent(SLOW, 0, 10, 5));
        harness.answers.forEach(a -> a.frame().release());
        harness.answers.clear();
        harness.advance(2_000);
        produce(new Part(SLOW, null, 0, RecordFrames.idempotent(PRODUCER, (short) 1, 0, 5, 10)));
        assertEquals(List.of("slow-0:NONE"), respond(harness.takeForwarded()), "sequences start over with a new epoch");
    }

    @Test
    void aNewEpochsLaterBatchWaitsForItsFirst() {
        // An idempotent producer whose batch was rejected bumps its epoch and restarts its in-flight
        // batches at sequence 0, but may send a new batch before it resends those.
        exhaustSlow(OnExceed.REJECT, idempotent(SLOW, 0, 0, 10));
        produce(idempotent(SLOW, 0, 10, 5));
        harness.advance(2_000);
        short next = 1;
        produce(new Part(SLOW, null, 0, RecordFrames.idempotent(PRODUCER, next, 5, 5, 10)));
        assertEquals(
                List.of("slow-0:REQUEST_TIMED_OUT"),
                outcomes(harness.answers.get(1).frame(), V),
                "the broker would refuse anything but sequence 0 first under a new epoch");
        produce(new Part(SLOW, null, 0, RecordFrames.idempotent(PRODUCER, next, 0, 5, 10)));
        assertEquals(List.of("slow-0:NONE"), respond(harness.takeForwarded()));
        produce(new Part(SLOW, null, 0, RecordFrames.idempotent(PRODUCER, next, 5, 5, 10)));
        assertEquals(List.of("slow-0:NONE"), respond(harness.takeForwarded()));
    }

    @Test
    void rejectFailsTheBatchWithTheReferenceMessageAndBouncesWhatFollowsItUntilRenumbered() {
        exhaustSlow(OnExceed.REJECT, idempotent(SLOW, 0, 0, 10));
        produce(idempotent(SLOW, 0, 10, 5), part(FAST, 0, 1));
        Forwarded cut = harness.takeForwarded();
        ByteBuf response =
                harness.respond(cut, RecordFrames.produceResponse(RecordFrames.readProduce(cut.frame(), V), V));
        assertEquals(List.of("slow-0:POLICY_VIOLATION", "fast-0:NONE"), outcomes(response, V));
        String message = message(response, V, SLOW, 0);
        assertTrue(message.matches("throttled: topic slow exceeds 10\\.0 msg/s; retry after \\d+ ms"), message);
        assertEquals("reject", onlyThrottle().action());

        harness.advance(2_000);
        produce(idempotent(SLOW, 0, 15, 5));
        assertEquals(
                "REQUEST_TIMED_OUT",
                outcomes(harness.answers.get(0).frame(), V).get(0).split(":")[1],
                "in flight behind the rejected batch: bounced, to come back renumbered");
        produce(idempotent(SLOW, 0, 10, 5));
        assertEquals(
                List.of("slow-0:NONE"), respond(harness.takeForwarded()), "renumbered into the rejected batch's place");
    }

    @Test
    void notifyForwardsChargesAndSaysHowLongToKeepQuiet() {
        exhaustSlow(OnExceed.NOTIFY, part(SLOW, 0, 10));
        produce(part(SLOW, 0, 10), part(FAST, 0, 1));
        Forwarded request = harness.takeForwarded();
        assertEquals(List.of("slow-0", "fast-0"), partitions(request), "nothing is cut");
        ByteBuf response =
                harness.respond(request, RecordFrames.produceResponse(RecordFrames.readProduce(request.frame(), V), V));
        int throttleMillis = RecordFrames.readProduceResponse(response, V).throttleTimeMs();
        assertTrue(
                throttleMillis >= 1_000 && throttleMillis <= 1_001,
                "ten records over a bucket of 10/s: a second to recover, rounded up: " + throttleMillis);
        assertTrue(harness.paused, "the connection is muted meanwhile, as a broker mutes it");
        assertEquals("notify", onlyThrottle().action());
        harness.advance(throttleMillis - 1);
        assertTrue(harness.paused);
        harness.advance(1);
        assertFalse(harness.paused);
    }

    @Test
    void notifyIsDelayForProduceBeforeVersion6() {
        harness.limit(SLOW_TOPIC, records(10, OnExceed.NOTIFY));
        short v5 = 5;
        produce(v5, ALL, part(SLOW, 0, 10));
        respond(harness.takeForwarded());
        produce(v5, ALL, part(SLOW, 0, 10), part(FAST, 0, 1));
        assertEquals(List.of("slow-0:REQUEST_TIMED_OUT", "fast-0:NONE"), respond(harness.takeForwarded()));
        assertFalse(harness.paused);
    }

    @Test
    void acksZeroBatchesOverQuotaAreHeldAndReleasedInOrderAtTheRate() {
        harness.limit(SLOW_TOPIC, records(10, OnExceed.REJECT));
        short none = 0;
        produce(V, none, part(SLOW, 0, 10), part(FAST, 0, 1));
        assertEquals(1, harness.upstream.size(), "within quota: the request goes whole");
        produce(V, none, part(SLOW, 0, 5), part(FAST, 0, 1));
        produce(V, none, part(SLOW, 1, 5));
        produce(V, none, part(SLOW, 0, 5));
        assertEquals(2, harness.upstream.size(), "only fast-0 of the second request went");
        ThrottledClient throttle = onlyThrottle();
        assertEquals("delay", throttle.action(), "nothing to carry a rejection: held");
        assertEquals(15, throttle.heldMessages());
        assertEquals(15, harness.activity.meter("kafka", SLOW).heldMessages());

        List<String> released = new ArrayList<>();
        for (int i = 0; i < 30; i++) {
            harness.advance(100);
            while (harness.upstream.size() > 2) {
                ByteBuf frame = harness.upstream.remove(2);
                ProduceRequestData data = RecordFrames.readProduce(frame, V);
                assertEquals(0, data.acks());
                data.topicData().forEach(t -> t.partitionData().forEach(p -> released.add(t.name() + "-" + p.index())));
                frame.release();
            }
        }
        assertEquals(
                List.of("slow-0", "slow-1", "slow-0"), released, "in the order they came, each a request of its own");
        assertEquals(0, harness.activity.meter("kafka", SLOW).heldMessages());
        assertTrue(harness.throttled().isEmpty());
        assertTrue(gates.produce().isIdle());
    }

    @ParameterizedTest
    @EnumSource(
            value = OnExceed.class,
            names = {"DELAY", "NOTIFY"})
    void acksZeroBatchesOverQuotaAreHeldWhateverTheAction(OnExceed action) {
        harness.limit(SLOW_TOPIC, records(10, action));
        short none = 0;
        produce(V, none, part(SLOW, 0, 10));
        produce(V, none, part(SLOW, 0, 5));
        assertEquals(1, harness.upstream.size(), "the second request is held");
        assertEquals("delay", onlyThrottle().action());
        assertEquals(5, onlyThrottle().heldMessages());
        assertFalse(harness.paused, "no response to carry a throttle time");
    }

    @Test
    void heldBatchesOverTheConnectionLimitStopTheClientsRequests() {
        harness.limits(harness.quotas
                .limits()
                .withLimit(SLOW_TOPIC, records(10, OnExceed.DELAY))
                .withConnection(new ConnectionLimits(100_000, 500)));
        short none = 0;
        produce(V, none, part(SLOW, 0, 10));
        for (int i = 0; i < 6 && !harness.paused; i++) {
            produce(V, none, new Part(SLOW, null, 0, RecordFrames.batch(1, 100)));
        }
        assertTrue(harness.paused, "held bytes over maxHeldBytes");
        harness.advance(10_000);
        assertFalse(harness.paused, "resumed once released");
    }

    @Test
    void aClientIdLimitCoversEveryTopicItProducesTo() {
        harness.limit(new ScopeRef(KafkaScopes.CLIENT, "app"), records(10, OnExceed.DELAY));
        produce(part(SLOW, 0, 6), part(FAST, 0, 6));
        assertEquals(
                List.of("slow-0:NONE", "fast-0:NONE"), respond(harness.takeForwarded()), "admitted while positive");
        produce(part(SLOW, 0, 1), part(FAST, 0, 1));
        assertEquals(
                List.of("slow-0:REQUEST_TIMED_OUT", "fast-0:REQUEST_TIMED_OUT"),
                outcomes(harness.answers.get(0).frame(), V));
        assertEquals("client", harness.throttled().get(0).scope());
    }

    @Test
    void clientIdsTooLongOrWithControlCharactersAreAllChargedAsOneInvalidClient() {
        harness.limit(new ScopeRef(KafkaScopes.CLIENT, KafkaNames.INVALID_CLIENT_ID), records(10, OnExceed.DELAY));
        String[] renamed = {"x".repeat(256), "tab\there", "new\nline", "y".repeat(32_000)};
        for (String clientId : renamed) {
            harness.request(RecordFrames.produceRequest(V, ALL, ++correlationId, clientId, part(FAST, 0, 3)));
            assertEquals(List.of("fast-0:NONE"), respond(harness.takeForwarded()), "admitted while positive");
        }
        harness.request(RecordFrames.produceRequest(V, ALL, ++correlationId, "z".repeat(300), part(FAST, 0, 1)));
        assertEquals(
                List.of("fast-0:REQUEST_TIMED_OUT"),
                outcomes(harness.answers.get(0).frame(), V),
                "ten records a second for all of them together");
        assertEquals(
                KafkaNames.INVALID_CLIENT_ID,
                harness.throttled().get(0).identity().get("clientId"));
    }

    @Test
    void theLongestPrefixWithALimitApplies() {
        harness.limit(new ScopeRef(KafkaScopes.PREFIX, "team-"), records(1_000, OnExceed.DELAY));
        harness.limit(new ScopeRef(KafkaScopes.PREFIX, "team-a."), records(5, OnExceed.DELAY));
        produce(part("team-a.orders", 0, 5), part("team-b.orders", 0, 5));
        respond(harness.takeForwarded());
        produce(part("team-a.audit", 0, 1), part("team-b.audit", 0, 1));
        assertEquals(
                List.of("team-a.audit-0:REQUEST_TIMED_OUT", "team-b.audit-0:NONE"), respond(harness.takeForwarded()));
        assertEquals("prefix", onlyThrottle().scope());
    }

    @Test
    void topicsNamedByIdAreLimitedByName() {
        Uuid slowId = Uuid.randomUuid();
        harness.topicIds.learn(slowId, SLOW);
        harness.limit(SLOW_TOPIC, records(10, OnExceed.DELAY));
        short v13 = 13;
        produce(v13, ALL, new Part(SLOW, slowId, 0, RecordFrames.batch(10, 10)));
        respond(harness.takeForwarded());
        produce(v13, ALL, new Part(SLOW, slowId, 0, RecordFrames.batch(1, 10)));
        assertTrue(harness.forwarded.isEmpty(), "over quota by id as by name");
        assertEquals(SLOW, onlyThrottle().topic());
        assertTrue(harness.lookups.isEmpty(), "a known id needs no lookup");
    }

    @Test
    void anIdNoResponseNamedWaitsForSluicesOwnLookupAndIsChargedToItsTopic() {
        Uuid slowId = Uuid.randomUuid();
        harness.clusterTopicIds.put(slowId, SLOW);
        harness.limit(SLOW_TOPIC, records(10, OnExceed.REJECT));
        short v13 = 13;
        produce(v13, ALL, new Part(SLOW, slowId, 0, RecordFrames.batch(10, 10)));
        assertTrue(harness.forwarded.isEmpty(), "the request waits for the lookup");
        assertTrue(harness.paused, "and no request behind it is taken");
        assertEquals(List.of(List.of(slowId)), harness.lookups);

        harness.loop.runTasks();
        assertFalse(harness.paused);
        respond(harness.takeForwarded());
        assertEquals(10, harness.activity.meter("kafka", SLOW).publishMessages(), "charged to the topic of the id");
        produce(v13, ALL, new Part(SLOW, slowId, 0, RecordFrames.batch(5, 10)));
        assertTrue(harness.forwarded.isEmpty(), "the next batch is over the limit");
        assertEquals(1, harness.lookups.size(), "the id is known from then on");
        assertEquals("reject", onlyThrottle().action());
    }

    @Test
    void anIdTheClusterDoesNotKnowIsAnsweredUnknownTopicIdAndNeverForwarded() {
        Uuid unknownId = Uuid.randomUuid();
        short v13 = 13;
        produce(v13, ALL, new Part("other", unknownId, 0, RecordFrames.batch(1, 10)));
        harness.loop.runTasks();
        assertTrue(harness.forwarded.isEmpty());
        ByteBuf answer = harness.answers.get(0).frame();
        ProduceResponseData.TopicProduceResponse topic = RecordFrames.readProduceResponse(answer, v13)
                .responses()
                .iterator()
                .next();
        assertEquals(unknownId, topic.topicId());
        assertEquals(
                Errors.UNKNOWN_TOPIC_ID.code(),
                topic.partitionResponses().get(0).errorCode());
        assertTrue(topic.partitionResponses().get(0).errorMessage().startsWith("Sluice "));
        assertFalse(harness.paused);
    }

    @Test
    void anAcksZeroBatchOfAnUnknownIdIsDroppedAndTheRestGoesOn() {
        Uuid unknownId = Uuid.randomUuid();
        Uuid knownId = Uuid.randomUuid();
        harness.topicIds.learn(knownId, FAST);
        short v13 = 13;
        produce(
                v13,
                (short) 0,
                new Part(FAST, knownId, 0, RecordFrames.batch(1, 10)),
                new Part("other", unknownId, 0, RecordFrames.batch(1, 10)));
        harness.loop.runTasks();
        assertEquals(1, harness.upstream.size());
        ProduceRequestData sent = RecordFrames.readProduce(harness.upstream.get(0), v13);
        assertEquals(1, sent.topicData().size());
        assertEquals(knownId, sent.topicData().iterator().next().topicId());
        assertTrue(gates.produce().isIdle());
    }

    @Test
    void aRequestIsDecidedAtOnceWhenNoLookupCanBeMade() {
        harness.lookup.close();
        Uuid unknownId = Uuid.randomUuid();
        harness.clusterTopicIds.put(unknownId, SLOW);
        produce((short) 13, ALL, new Part(SLOW, unknownId, 0, RecordFrames.batch(1, 10)));
        assertTrue(harness.lookups.isEmpty(), "a closed lookup asks nobody");
        assertEquals(1, harness.answers.size(), "answered at once: UNKNOWN_TOPIC_ID");
        assertFalse(harness.paused);
    }

    @Test
    void aRequestWaitingForItsIdsIsAnsweredAfterItsTimeoutWhenTheLookupNeverAnswers() {
        ManualEventLoop stuck = new ManualEventLoop();
        GateHarness waiting = new GateHarness(stuck);
        try {
            Uuid id = Uuid.randomUuid();
            short v13 = 13;
            waiting.request(KafkaFrames.request(
                    RecordFrames.produce(v13, ALL, new Part(SLOW, id, 0, RecordFrames.batch(1, 10)))
                            .setTimeoutMs(500),
                    v13,
                    1,
                    GateHarness.CLIENT_ID));
            waiting.advance(400);
            assertTrue(waiting.answers.isEmpty() && waiting.forwarded.isEmpty(), "still within timeout_ms");
            assertTrue(waiting.paused);
            waiting.advance(200);
            assertEquals(1, waiting.answers.size(), "UNKNOWN_TOPIC_ID once timeout_ms passed");
            assertTrue(waiting.forwarded.isEmpty(), "never forwarded unmetered");
            assertFalse(waiting.paused);
        } finally {
            waiting.close();
        }
    }

    @Test
    void anInvalidTopicNameGoesToTheBrokerWithNothingKeptForIt() {
        harness.limit(ScopeRef.PROXY, records(1, OnExceed.REJECT));
        produce(part("no such/topic!", 0, 5));
        assertEquals(List.of("no such/topic!-0:NONE"), respond(harness.takeForwarded()), "the broker refuses it");
        assertTrue(
                harness.activity.meters().stream().noneMatch(m -> m.topic().contains("/")),
                "no figures for an invalid name");
        assertTrue(harness.throttled().isEmpty());
    }

    @Test
    void aConnectionTracksAtMostItsTopicsAndRefusesTheRest() {
        Part[] parts = new Part[KafkaSettings.DEFAULT_MAX_TOPICS_PER_CONNECTION + 1];
        for (int i = 0; i < parts.length; i++) {
            parts[i] = part("t" + i, 0, 1);
        }
        produce(parts);
        List<String> outcomes = respond(harness.takeForwarded());
        assertEquals(parts.length, outcomes.size());
        assertEquals(
                "t" + KafkaSettings.DEFAULT_MAX_TOPICS_PER_CONNECTION + "-0:POLICY_VIOLATION",
                outcomes.get(parts.length - 1));
        assertEquals("t0-0:NONE", outcomes.get(0));
    }

    @Test
    void aSmallHeldPartitionOfALargeRequestPinsOnlyItsOwnBytes() {
        exhaustSlow(OnExceed.DELAY, part(SLOW, 0, 10));
        ByteBuf request = RecordFrames.produceRequest(
                V,
                (short) 0,
                ++correlationId,
                GateHarness.CLIENT_ID,
                new Part(FAST, null, 0, RecordFrames.batch(1, 5 << 20)),
                part(SLOW, 0, 1));
        harness.request(request.retain());
        harness.upstream.remove(0).release();
        assertEquals(1, request.refCnt(), "the held partition keeps no reference to the 5 MiB request");
        request.release();
        ThrottledClient held = onlyThrottle();
        assertEquals(1, held.heldMessages());
        assertTrue(held.heldBytes() < 1_000, "held bytes are the partition's: " + held.heldBytes());
    }

    @Test
    void aChangedLimitAppliesToTheNextBatch() {
        exhaustSlow(OnExceed.DELAY, part(SLOW, 0, 10));
        harness.limits(harness.quotas.limits().withLimit(SLOW_TOPIC, null));
        produce(part(SLOW, 0, 10));
        assertEquals(List.of("slow-0:NONE"), respond(harness.takeForwarded()));
    }

    @Test
    void closingReleasesWhatIsHeldAndEndsThrottles() {
        harness.limit(SLOW_TOPIC, records(10, OnExceed.DELAY));
        short none = 0;
        produce(V, none, part(SLOW, 0, 10));
        produce(V, none, part(SLOW, 0, 10));
        assertEquals(10, harness.activity.meter("kafka", SLOW).heldMessages());
        gates.close();
        assertEquals(0, harness.activity.meter("kafka", SLOW).heldMessages());
        assertTrue(harness.throttled().isEmpty());
        harness.advance(5_000);
        assertEquals(1, harness.upstream.size(), "nothing released after close");
    }

    @Test
    void aBatchClaimingMoreRecordsThanItsBytesHoldIsRefusedAsCorruptChargingNothing() {
        harness.limit(SLOW_TOPIC, records(10, OnExceed.REJECT));
        MemoryRecords lying = RecordFrames.batch(1, 10);
        lying.buffer().putInt(57, Integer.MAX_VALUE); // recordCount of the batch header
        produce(new Part(SLOW, null, 0, lying), part(FAST, 0, 1));
        Forwarded cut = harness.takeForwarded();
        assertEquals(List.of("fast-0"), partitions(cut), "the lying batch is not forwarded");
        ByteBuf response =
                harness.respond(cut, RecordFrames.produceResponse(RecordFrames.readProduce(cut.frame(), V), V));
        assertEquals(List.of("slow-0:CORRUPT_MESSAGE", "fast-0:NONE"), outcomes(response, V));
        assertTrue(message(response, V, SLOW, 0).startsWith("Sluice refused this batch: it claims 2147483647"));
        assertEquals(1L, harness.services.stats().protocolErrors().get("batch_overclaims_records"));

        produce(part(SLOW, 0, 10));
        assertEquals(List.of("slow-0:NONE"), respond(harness.takeForwarded()), "the burst is whole");
    }

    @Test
    void aPartitionTheBrokerRefusesGivesItsChargeBack() {
        harness.limit(SLOW_TOPIC, records(10, OnExceed.REJECT));
        produce(part(SLOW, 0, 10), part(FAST, 0, 1));
        Forwarded request = harness.takeForwarded();
        ProduceResponseData refused = RecordFrames.produceResponse(RecordFrames.readProduce(request.frame(), V), V);
        refused.responses()
                .find(SLOW, Uuid.ZERO_UUID)
                .partitionResponses()
                .get(0)
                .setErrorCode(Errors.CORRUPT_MESSAGE.code());
        assertEquals(List.of("slow-0:CORRUPT_MESSAGE", "fast-0:NONE"), outcomes(harness.respond(request, refused), V));

        produce(part(SLOW, 0, 10));
        assertEquals(
                List.of("slow-0:NONE"),
                respond(harness.takeForwarded()),
                "what the broker did not store costs nothing");
        produce(part(SLOW, 0, 10));
        assertTrue(harness.forwarded.isEmpty(), "what it stored does");
    }
}
