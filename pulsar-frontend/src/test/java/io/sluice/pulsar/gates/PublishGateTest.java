package io.sluice.pulsar.gates;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.sluice.limits.ConnectionLimits;
import io.sluice.limits.Limit;
import io.sluice.limits.OnExceed;
import io.sluice.limits.RateLimit;
import io.sluice.limits.ScopeRef;
import io.sluice.pulsar.codec.FrameCommand;
import io.sluice.pulsar.codec.FrameReader;
import io.sluice.pulsar.codec.FrameWriter;
import io.sluice.pulsar.codec.TestFrames;
import io.sluice.pulsar.codec.proto.BaseCommand;
import io.sluice.pulsar.codec.proto.CommandThrottleProducer;
import io.sluice.pulsar.codec.proto.CommandThrottleProducer.ThrottlingReason;
import io.sluice.pulsar.codec.proto.CommandThrottleProducerReceipt;
import io.sluice.pulsar.scopes.PulsarScopes;
import io.sluice.relay.ConnectionBudget;
import io.sluice.relay.FrameView;
import io.sluice.relay.MalformedFrameException;
import io.sluice.status.ThrottledClient;
import io.sluice.testing.LeakCheck;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.LongStream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The publish gate against a fake clock and an in-memory connection: every action, the notice
 * states a client can put it in, limit changes while sends are held, the connection budget, and
 * closing with sends held.
 */
@ExtendWith(LeakCheck.class)
class PublishGateTest {

    private static final String TOPIC = "persistent://public/default/t";
    private static final ScopeRef TOPIC_SCOPE = new ScopeRef(PulsarScopes.TOPIC, TOPIC);
    private static final long PRODUCER = 7;

    private final GateHarness harness = new GateHarness();
    private final PublishGate gate = harness.publishGate();
    private long nextSequenceId;

    @AfterEach
    void closeAll() {
        gate.close();
        harness.close();
    }

    private static Limit publish(double messagesPerSecond, OnExceed onExceed) {
        return Limit.publish(new RateLimit(messagesPerSecond, null, null, null)).withOnExceed(onExceed);
    }

    private void producer() {
        gate.producers().requested(1, PRODUCER, TOPIC);
        gate.producers().succeeded(1);
    }

    private void send(int count, int payloadBytes) {
        for (int i = 0; i < count; i++) {
            GateHarness.lend(TestFrames.send(PRODUCER, nextSequenceId++, 1, payloadBytes), this::sendFrame);
        }
    }

    /** Reads the frame's command as the connection does, then hands both to the gate. */
    private void sendFrame(FrameView frame) {
        gate.send(frame, FrameReader.read(frame, new FrameCommand()));
    }

    private void answerFrame(FrameView frame) {
        gate.answer(frame, FrameReader.read(frame, new FrameCommand()));
    }

    private void answer(long sequenceId) {
        GateHarness.lend(TestFrames.receipt(PRODUCER, sequenceId), this::answerFrame);
    }

    private static List<Long> range(long from, long to) {
        return LongStream.range(from, to).boxed().toList();
    }

    private ThrottledClient onlyThrottle() {
        List<ThrottledClient> throttled = harness.throttled();
        assertEquals(1, throttled.size(), "throttled: " + throttled);
        return throttled.get(0);
    }

    @Test
    void withinQuotaSendsGoOutAtOnceAsTheirOriginalFrames() {
        harness.limit(TOPIC_SCOPE, publish(100, OnExceed.DELAY));
        producer();
        ByteBuf frame = TestFrames.send(PRODUCER, 0, 1, 10);
        GateHarness.lend(frame, this::sendFrame);
        assertEquals(List.of(frame), harness.lentUpstream, "the very bytes, not a copy");
        assertEquals(List.of(0L), harness.takeForwardedSequenceIds());
        assertTrue(harness.throttled().isEmpty());
    }

    @Test
    void aSendOfAnUnknownProducerIsRefusedBySluiceAndNeverForwarded() {
        GateHarness.lend(TestFrames.send(99, 5, 1, 10), this::sendFrame);
        assertEquals(List.of(), harness.takeForwardedSequenceIds());
        List<BaseCommand> answers = harness.takeClientCommands();
        assertEquals(1, answers.size());
        assertEquals(5, answers.get(0).getSendError().getSequenceId());
        assertTrue(answers.get(0).getSendError().getMessage().startsWith("Sluice"), answers.toString());
        assertTrue(gate.isIdle(), "nothing waits for the broker");
    }

    @Test
    void aSendOfAProducerNotCreatedYetIsRefusedUntilTheBrokerAnswers() {
        harness.limit(TOPIC_SCOPE, publish(1, OnExceed.REJECT));
        gate.producers().requested(1, PRODUCER, TOPIC);
        assertTrue(gate.producers().isPending(PRODUCER));
        assertTrue(gate.producers().isRequestPending(1));
        send(1, 10);
        assertEquals(List.of(), harness.takeForwardedSequenceIds(), "not forwarded unmetered");
        assertTrue(
                harness.takeClientCommands().get(0).getSendError().getMessage().contains("not created yet"));
        gate.producers().succeeded(1);
        send(1, 10);
        assertEquals(List.of(1L), harness.takeForwardedSequenceIds(), "metered once created");
    }

    @Test
    void aSendWrittenBeforeTheClientSawItsProducerClosedIsDroppedAsTheBrokerDropsIt() {
        producer();
        gate.producers().closed(PRODUCER);
        send(1, 10);
        assertEquals(List.of(), harness.takeForwardedSequenceIds());
        assertEquals(List.of(), harness.takeClientCommands(), "the broker answers such a send with nothing");
    }

    @Test
    void aRepeatedProducerIdOnAnotherTopicStaysMeteredAgainstItsFirstTopic() {
        harness.limit(TOPIC_SCOPE, publish(2, OnExceed.REJECT));
        producer();
        // The broker answers success and keeps producer 7 on TOPIC; so must Sluice.
        gate.producers().requested(2, PRODUCER, "persistent://public/default/unlimited");
        gate.producers().succeeded(2);
        send(3, 10);
        assertEquals(range(0, 2), harness.takeForwardedSequenceIds(), "the third send is over TOPIC's limit");
        assertEquals("reject", onlyThrottle().action());
        assertEquals(2, harness.activity.meter("pulsar", TOPIC).publishMessages());
    }

    @Test
    void aBatchThatUnderDeclaresItsCountIsChargedAtItsOwnCount() {
        harness.limit(TOPIC_SCOPE, publish(100, OnExceed.REJECT));
        producer();
        GateHarness.lend(TestFrames.batchSend(PRODUCER, nextSequenceId++, 1, 150, 900), this::sendFrame);
        GateHarness.lend(TestFrames.batchSend(PRODUCER, nextSequenceId++, 1, 1, 10), this::sendFrame);
        assertEquals(List.of(0L), harness.takeForwardedSequenceIds(), "150 messages use up the burst of 100 and more");
        assertEquals(150, harness.activity.meter("pulsar", TOPIC).publishMessages());
    }

    @Test
    void aCountDeclaredAboveTheBatchsOwnIsChargedAtTheBatchsOwn() {
        harness.limit(TOPIC_SCOPE, publish(100, OnExceed.REJECT));
        producer();
        GateHarness.lend(TestFrames.batchSend(PRODUCER, nextSequenceId++, 2_000_000_000, 1, 10), this::sendFrame);
        send(99, 10);
        assertEquals(range(0, 100), harness.takeForwardedSequenceIds(), "one message, then the rest of the burst");
        assertEquals(100, harness.activity.meter("pulsar", TOPIC).publishMessages());
    }

    @Test
    void aBatchClaimingMoreMessagesThanItsBytesHoldIsMalformedAndChargesNothing() {
        harness.limit(TOPIC_SCOPE, publish(100, OnExceed.REJECT));
        producer();
        ByteBuf lying = TestFrames.batchSend(PRODUCER, nextSequenceId++, 1, 2_000_000_000, 10);
        assertThrows(MalformedFrameException.class, () -> GateHarness.lend(lying, this::sendFrame));
        assertEquals(List.of(), harness.takeForwardedSequenceIds());
        assertEquals(0, harness.activity.meter("pulsar", TOPIC).publishMessages());
        assertTrue(gate.isIdle());
    }

    @Test
    void aHeldSendInALargeReadBufferPinsOnlyItsOwnBytes() {
        harness.limit(TOPIC_SCOPE, publish(1, OnExceed.DELAY));
        producer();
        send(1, 10);
        harness.takeForwardedSequenceIds();
        ByteBuf small = TestFrames.send(PRODUCER, nextSequenceId++, 1, 100);
        ByteBuf read = Unpooled.buffer(1 << 20).writeBytes(small);
        small.release();
        GateHarness.lend(read.retain(), this::sendFrame);
        assertEquals(1, read.refCnt(), "the held send keeps no reference to the 1 MiB read buffer");
        read.release();
        assertEquals(1, onlyThrottle().heldMessages());
        harness.advance(1_000);
        assertEquals(List.of(1L), harness.takeForwardedSequenceIds(), "and is released as it was");
    }

    @Test
    void delayHoldsOnlyWhatIsOverQuotaAndReleasesItInOrderAtTheRate() {
        harness.limit(TOPIC_SCOPE, publish(10, OnExceed.DELAY));
        producer();
        send(15, 100);

        assertEquals(range(0, 10), harness.takeForwardedSequenceIds(), "the burst goes at once");
        ThrottledClient throttle = onlyThrottle();
        assertEquals("delay", throttle.action());
        assertEquals("topic", throttle.scope());
        assertEquals("publish_messages", throttle.reason());
        assertEquals(5, throttle.heldMessages());
        assertEquals(500, throttle.heldBytes());
        assertEquals(5, harness.activity.meter("pulsar", TOPIC).heldMessages());

        List<Long> released = new ArrayList<>();
        for (int step = 0; step < 5; step++) {
            harness.advance(100);
            released.addAll(harness.takeForwardedSequenceIds());
        }
        assertEquals(range(10, 15), released, "in order, about one per 100 ms");
        assertEquals(0, harness.activity.meter("pulsar", TOPIC).heldMessages());
        assertTrue(harness.flushes > 0, "a timer's releases are flushed");
        assertEquals(
                5, Arrays.stream(harness.ledger.delays().get("topic").counts()).sum(), "each release is a delay");

        for (long id = 0; id < 15; id++) {
            answer(id);
        }
        harness.takeClientCommands();
        assertTrue(gate.isIdle());
        harness.advance(200);
        assertTrue(harness.throttled().isEmpty(), "the throttle ends once nothing is held");
    }

    @Test
    void aFastHeldProducerIsReleasedInMillisecondTicksAtTheExactRate() {
        // 10,000 msg/s with a 10 ms burst: a send falls due every 0.1 ms.
        harness.limit(
                TOPIC_SCOPE,
                Limit.publish(new RateLimit(10_000.0, null, 0.01, null)).withOnExceed(OnExceed.DELAY));
        producer();
        send(400, 10);
        int burst = harness.takeForwardedSequenceIds().size();
        int flushesBefore = harness.flushes;

        int released = 0;
        for (int step = 0; step < 200; step++) {
            harness.loop.advanceTimeBy(100, TimeUnit.MICROSECONDS);
            harness.loop.runTasks();
            released += harness.takeForwardedSequenceIds().size();
        }
        assertEquals(200, released, 2, "20 ms at 10,000 msg/s");
        assertTrue(
                harness.flushes - flushesBefore <= 21,
                "at most one wake-up and flush a millisecond: " + (harness.flushes - flushesBefore));
        assertTrue(burst >= 100 && burst <= 101, "the burst: " + burst);
    }

    @Test
    void laterSendsQueueBehindHeldOnesEvenWhenTheQuotaWouldAdmitThem() {
        harness.limit(TOPIC_SCOPE, publish(1, OnExceed.DELAY));
        producer();
        send(2, 10);
        assertEquals(List.of(0L), harness.takeForwardedSequenceIds());
        harness.limit(TOPIC_SCOPE, publish(1_000_000, OnExceed.DELAY));
        send(1, 10);
        assertEquals(List.of(), harness.takeForwardedSequenceIds(), "behind the held send, not past it");
        harness.advance(100);
        assertEquals(List.of(1L, 2L), harness.takeForwardedSequenceIds(), "a raised limit applies within 100 ms");
    }

    @Test
    void rejectAnswersAfterTheReceiptsOfEarlierSendsAndForwardsNothing() {
        harness.limit(TOPIC_SCOPE, publish(2, OnExceed.REJECT));
        producer();
        send(3, 10);
        assertEquals(range(0, 2), harness.takeForwardedSequenceIds());
        assertEquals(List.of(), harness.takeClientCommands(), "the error waits for the receipts before it");

        answer(0);
        answer(1);
        List<BaseCommand> answers = harness.takeClientCommands();
        assertEquals(3, answers.size());
        assertEquals(BaseCommand.Type.SEND_RECEIPT, answers.get(0).getType());
        assertEquals(BaseCommand.Type.SEND_RECEIPT, answers.get(1).getType());
        BaseCommand error = answers.get(2);
        assertEquals(BaseCommand.Type.SEND_ERROR, error.getType());
        assertEquals(2, error.getSendError().getSequenceId());
        assertTrue(
                error.getSendError()
                        .getMessage()
                        .matches(
                                "throttled: topic persistent://public/default/t exceeds 2\\.0 msg/s; retry after \\d+ ms"),
                error.getSendError().getMessage());
        assertEquals("reject", onlyThrottle().action());
        assertTrue(gate.isIdle());
    }

    @Test
    void rejectWithNothingInFlightAnswersAtOnce() {
        harness.limit(TOPIC_SCOPE, publish(1, OnExceed.REJECT));
        producer();
        send(1, 10);
        answer(0);
        harness.takeClientCommands();
        send(1, 10);
        List<BaseCommand> answers = harness.takeClientCommands();
        assertEquals(1, answers.size());
        assertEquals(1, answers.get(0).getSendError().getSequenceId());
        harness.advance(1_100);
        assertTrue(harness.throttled().isEmpty(), "over once the retry time has passed");
    }

    @Test
    void aLimitTurnedToRejectWhileSendsAreHeldRejectsThemInOrder() {
        harness.limit(TOPIC_SCOPE, publish(1, OnExceed.DELAY));
        producer();
        send(3, 10);
        assertEquals(List.of(0L), harness.takeForwardedSequenceIds());
        harness.limit(TOPIC_SCOPE, publish(1, OnExceed.REJECT));
        harness.advance(100);
        // The bucket admits while its balance is positive, so one more goes; the next is refused.
        assertEquals(List.of(1L), harness.takeForwardedSequenceIds());
        answer(0);
        answer(1);
        List<BaseCommand> answers = harness.takeClientCommands();
        assertEquals(
                List.of(BaseCommand.Type.SEND_RECEIPT, BaseCommand.Type.SEND_RECEIPT, BaseCommand.Type.SEND_ERROR),
                answers.stream().map(BaseCommand::getType).toList());
        assertEquals(2, answers.get(2).getSendError().getSequenceId());
        assertEquals("reject", onlyThrottle().action());
        assertTrue(gate.isIdle());
    }

    @Test
    void aLimitTurnedToNotifyWhileSendsAreHeldKeepsThemHeldAndSaysNothing() {
        harness.limit(TOPIC_SCOPE, publish(10, OnExceed.DELAY));
        gate.notices().clientSupportsNotices(true);
        producer();
        send(12, 10);
        assertEquals(range(0, 10), harness.takeForwardedSequenceIds());
        harness.limit(TOPIC_SCOPE, publish(10, OnExceed.NOTIFY));
        send(1, 10);
        assertEquals(List.of(), harness.takeForwardedSequenceIds(), "queued behind what is held");

        harness.advance(100);
        List<Long> released = new ArrayList<>(harness.takeForwardedSequenceIds());
        assertEquals("delay", onlyThrottle().action(), "still held by Sluice");
        for (int step = 0; step < 3; step++) {
            harness.advance(100);
            released.addAll(harness.takeForwardedSequenceIds());
        }
        assertEquals(range(10, 13), released, "released in order at the rate");
        assertEquals(List.of(), harness.takeClientCommands(), "a notice cannot take back sends already made");
    }

    @Test
    void aRemovedLimitReleasesWhatIsHeldWithinTheTimerBound() {
        harness.limit(TOPIC_SCOPE, publish(0.5, OnExceed.DELAY));
        producer();
        send(4, 10);
        assertEquals(List.of(0L), harness.takeForwardedSequenceIds());
        harness.limit(TOPIC_SCOPE, null);
        harness.advance(100);
        assertEquals(range(1, 4), harness.takeForwardedSequenceIds());
    }

    private long throttleNotice(ThrottlingReason reason) {
        List<BaseCommand> commands = harness.takeClientCommands();
        assertEquals(1, commands.size(), "commands: " + commands);
        CommandThrottleProducer notice = commands.get(0).getThrottleProducer();
        assertEquals(PRODUCER, notice.getProducerId());
        assertEquals(reason, notice.getThrottlingReason());
        return notice.getRequestId();
    }

    private void receipt(long requestId) {
        GateHarness.lend(
                FrameWriter.encode(
                        Unpooled.buffer().alloc(),
                        BaseCommand.newBuilder()
                                .setType(BaseCommand.Type.THROTTLE_PRODUCER_RECEIPT)
                                .setThrottleProducerReceipt(CommandThrottleProducerReceipt.newBuilder()
                                        .setRequestId(requestId))
                                .build()),
                frame -> gate.notices().receipt(FrameReader.read(frame, new FrameCommand())));
    }

    @Test
    void notifyTellsACompliantClientToPauseAndHoldsNothing() {
        harness.limit(TOPIC_SCOPE, publish(10, OnExceed.NOTIFY));
        gate.notices().clientSupportsNotices(true);
        producer();
        send(11, 10);
        assertEquals(range(0, 11), harness.takeForwardedSequenceIds(), "the send that found the bucket empty goes too");
        long notice = throttleNotice(ThrottlingReason.TopicProduceQuotaExceeded);
        assertEquals("notify", onlyThrottle().action());

        harness.advance(20);
        receipt(notice);
        harness.advance(50);
        assertEquals(0, onlyThrottle().heldMessages(), "relies on the client");
        harness.advance(300);
        assertTrue(harness.throttled().isEmpty(), "over after the pause and a receipt window");
        send(1, 10);
        assertEquals(List.of(11L), harness.takeForwardedSequenceIds());
        assertEquals(List.of(), harness.takeClientCommands());
    }

    @Test
    void notifyFallsBackToDelayForAClientThatDoesNotConfirm() {
        harness.limit(TOPIC_SCOPE, publish(10, OnExceed.NOTIFY));
        gate.notices().clientSupportsNotices(true);
        producer();
        send(11, 10);
        harness.takeForwardedSequenceIds();
        throttleNotice(ThrottlingReason.TopicProduceQuotaExceeded);

        harness.advance(GateHarness.RECEIPT_WINDOW.toMillis() + 1);
        assertEquals("delay", onlyThrottle().action(), "a silent client is throttled by Sluice");
        send(3, 10);
        assertEquals(List.of(11L), harness.takeForwardedSequenceIds(), "the bucket has recovered one message");
        assertEquals(2, onlyThrottle().heldMessages(), "the rest is held, not forwarded");
        assertEquals(List.of(), harness.takeClientCommands(), "and never notified again");
    }

    @Test
    void notifyFallsBackToDelayForAClientThatConfirmsButKeepsSending() {
        harness.limit(TOPIC_SCOPE, publish(10, OnExceed.NOTIFY));
        gate.notices().clientSupportsNotices(true);
        producer();
        send(11, 10);
        harness.takeForwardedSequenceIds();
        receipt(throttleNotice(ThrottlingReason.TopicProduceQuotaExceeded));

        send(1, 10);
        assertEquals(List.of(), harness.takeForwardedSequenceIds(), "written during the pause it promised");
        assertEquals("delay", onlyThrottle().action());
        harness.advance(1_000);
        assertEquals(List.of(11L), harness.takeForwardedSequenceIds(), "released at the rate, as for delay");
    }

    @Test
    void notifyIsDelayForAClientWithoutTheFeatureFlag() {
        harness.limit(TOPIC_SCOPE, publish(10, OnExceed.NOTIFY));
        producer();
        send(12, 10);
        assertEquals(range(0, 10), harness.takeForwardedSequenceIds());
        assertEquals(List.of(), harness.takeClientCommands(), "a stock client never sees an unknown command");
        assertEquals("delay", onlyThrottle().action());
        assertEquals(2, onlyThrottle().heldMessages());
    }

    @Test
    void aNamespaceLimitIsNotifiedAsAGroupQuota() {
        harness.limit(new ScopeRef(PulsarScopes.NAMESPACE, "public/default"), publish(5, OnExceed.NOTIFY));
        gate.notices().clientSupportsNotices(true);
        producer();
        send(6, 10);
        throttleNotice(ThrottlingReason.ResourceGroupProduceQuotaExceeded);
        assertEquals("namespace", onlyThrottle().scope());
    }

    @Test
    void theConnectionBudgetPausesReadingAndResumesUnderHalf() {
        harness.limits(harness.quotas
                .limits()
                .withLimit(TOPIC_SCOPE, publish(10, OnExceed.DELAY))
                .withConnection(new ConnectionLimits(4, 1 << 20)));
        gate.notices().clientSupportsNotices(true);
        producer();
        send(4, 10);
        assertEquals(List.of(), harness.pauses, "at the limit, not over it");
        send(1, 10);
        assertEquals(List.of(ConnectionBudget.Breach.PENDING_SENDS), harness.pauses);
        assertEquals(
                ThrottlingReason.ConnectionPendingMessagesBreach,
                harness.takeClientCommands().get(0).getThrottleProducer().getThrottlingReason());

        answer(0);
        answer(1);
        assertEquals(0, harness.resumes, "3 pending is over half of 4");
        answer(2);
        assertEquals(1, harness.resumes);
        harness.takeClientCommands();
    }

    @Test
    void heldBytesOverTheBudgetPauseReading() {
        harness.limits(harness.quotas
                .limits()
                .withLimit(TOPIC_SCOPE, publish(1, OnExceed.DELAY))
                .withConnection(new ConnectionLimits(100, 1000)));
        producer();
        send(3, 400);
        assertEquals(List.of(), harness.pauses, "800 bytes held");
        send(1, 400);
        assertEquals(List.of(ConnectionBudget.Breach.HELD_BYTES), harness.pauses);
        assertEquals(List.of(), harness.takeClientCommands(), "no notices for a client without the flag");
        harness.advance(1_000);
        harness.advance(1_000);
        assertEquals(1, harness.resumes, "400 bytes held is under half of 1000");
    }

    @Test
    void closingWithSendsHeldReleasesThemAndForgetsThem() {
        harness.limit(TOPIC_SCOPE, publish(1, OnExceed.DELAY));
        producer();
        List<ByteBuf> sent = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            ByteBuf frame = TestFrames.send(PRODUCER, i, 1, 10);
            sent.add(frame);
            GateHarness.lend(frame, this::sendFrame);
        }
        assertEquals(1, harness.takeForwardedSequenceIds().size());
        gate.close();
        for (ByteBuf frame : sent) {
            assertEquals(0, frame.refCnt());
        }
        assertTrue(gate.isIdle());
        assertTrue(harness.throttled().isEmpty());
        assertEquals(0, harness.activity.meter("pulsar", TOPIC).heldMessages());
        harness.advance(1_000);
        assertEquals(List.of(), harness.takeForwardedSequenceIds(), "no timer left behind");
    }

    @Test
    void aProducerClosedWithSendsHeldLeavesNothingPending() {
        harness.limit(TOPIC_SCOPE, publish(1, OnExceed.DELAY));
        producer();
        send(3, 10);
        harness.takeForwardedSequenceIds();
        assertFalse(gate.isIdle());
        gate.producers().closed(PRODUCER);
        assertTrue(gate.isIdle(), "a draining connection can close at once");
        answer(0);
        assertTrue(gate.isIdle(), "a late receipt of a closed producer changes nothing");
        harness.takeClientCommands();
    }

    @Test
    void aRepeatedProducerRequestKeepsWhatTheProducerHolds() {
        harness.limit(TOPIC_SCOPE, publish(1, OnExceed.DELAY));
        producer();
        send(3, 10);
        harness.takeForwardedSequenceIds();
        gate.producers().requested(2, PRODUCER, TOPIC);
        gate.producers().succeeded(2);
        assertEquals(2, harness.activity.meter("pulsar", TOPIC).heldMessages(), "the broker kept the producer");
        assertEquals(1, harness.throttled().size());
    }
}
