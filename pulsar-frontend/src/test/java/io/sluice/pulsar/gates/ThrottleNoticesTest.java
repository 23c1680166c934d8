package io.sluice.pulsar.gates;

import io.sluice.limits.Direction;
import io.sluice.pulsar.codec.FrameCommand;
import io.sluice.pulsar.codec.FrameReader;
import io.sluice.pulsar.codec.FrameWriter;
import io.sluice.pulsar.codec.proto.BaseCommand;
import io.sluice.pulsar.codec.proto.CommandThrottleProducer.ThrottlingReason;
import io.sluice.pulsar.codec.proto.CommandThrottleProducerReceipt;
import io.sluice.pulsar.scopes.PulsarScopes;
import io.sluice.quota.QuotaDecision;
import io.sluice.relay.ConnectionBudget;
import io.sluice.relay.ConnectionHolds;
import io.sluice.relay.TopicQuota;
import io.sluice.status.ClientIdentity;
import io.sluice.status.CurrentThrottle;
import io.sluice.status.ThrottleSubject;
import io.sluice.testing.LeakCheck;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

/**
 * The receipt windows of quota notices against a fake clock: each notice missed exactly one window
 * after it was written unless its receipt came, every window on one timer of the connection's one
 * timer, and nothing left waiting once none is awaited.
 */
@ExtendWith(LeakCheck.class)
class ThrottleNoticesTest {

    private static final String TOPIC = "persistent://public/default/t";
    private static final long WINDOW_MILLIS = 100;

    private final GateHarness harness = new GateHarness();
    private final List<String> outcomes = new ArrayList<>();
    private final ThrottleNotices notices = new ThrottleNotices(
            harness,
            harness.timers,
            harness.services.quotas().clock(),
            TimeUnit.MILLISECONDS.toNanos(WINDOW_MILLIS),
            new ThrottleNotices.Outcome() {
                @Override
                public void noticeAnswered(ProducerState producer, long requestId) {
                    outcomes.add("answered " + producer.producerId + "/" + requestId);
                }

                @Override
                public void noticeMissed(ProducerState producer, long requestId) {
                    outcomes.add("missed " + producer.producerId + "/" + requestId);
                }
            });

    @AfterEach
    void closeAll() {
        harness.timers.close();
        harness.close();
    }

    @Test
    void aNoticeWithoutAReceiptIsMissedOneWindowAfterItWasWritten() {
        long notice = notify(7);
        assertEquals(1, harness.takeClientCommands().size(), "the notice itself");

        harness.advance(WINDOW_MILLIS - 1);
        assertEquals(List.of(), outcomes);
        harness.advance(1);
        assertEquals(List.of("missed 7/" + notice), outcomes);

        assertEquals(0, harness.timers.armedCount(), "nothing waits once nothing is awaited");
        assertFalse(harness.loop.hasTimers());
    }

    @Test
    void theNoticesOfAConnectionShareOneTimerAndEachKeepsItsOwnDeadline() {
        long first = notify(1);
        harness.advance(30);
        long second = notify(2);
        harness.advance(30);
        long third = notify(3);
        assertEquals(1, harness.timers.armedCount(), "one timer for three notices");

        receipt(second);
        assertEquals(List.of("answered 2/" + second), outcomes);
        harness.advance(40);
        assertEquals(List.of("answered 2/" + second, "missed 1/" + first), outcomes, "at 100 ms");
        harness.advance(59);
        assertEquals(2, outcomes.size(), "the second was answered; the third is due at 160 ms");
        harness.advance(1);
        assertEquals("missed 3/" + third, outcomes.get(2));
        assertFalse(harness.loop.hasTimers());
    }

    @Test
    void aReceiptAfterTheDeadlineOrForAForgottenNoticeChangesNothing() {
        long missed = notify(1);
        harness.advance(WINDOW_MILLIS);
        receipt(missed);
        long forgotten = notify(2);
        notices.forget(forgotten);
        receipt(forgotten);
        harness.advance(WINDOW_MILLIS);

        assertEquals(List.of("missed 1/" + missed), outcomes);
        assertEquals(0, harness.timers.armedCount());
    }

    private long notify(long producerId) {
        return notices.quotaExceeded(producer(producerId), ThrottlingReason.TopicProduceQuotaExceeded, 50);
    }

    private ProducerState producer(long producerId) {
        ConnectionHolds holds = new ConnectionHolds(
                harness.timers,
                new ConnectionBudget(() -> harness.quotas.limits().connection(), harness),
                harness.ledger,
                harness::flush);
        return new ProducerState(
                producerId,
                new TopicQuota(
                        harness.quotas,
                        harness.activity,
                        Direction.PUBLISH,
                        PulsarScopes.PROTOCOL,
                        TOPIC,
                        PulsarScopes.topic(TOPIC)),
                new CurrentThrottle(
                        harness.ledger,
                        new ThrottleSubject(PulsarScopes.PROTOCOL, "10.0.0.1:5000", TOPIC, ClientIdentity.NONE)),
                holds,
                PublishGate.MIN_TIMER_NANOS,
                PublishGate.MAX_TIMER_NANOS,
                new QuotaDecision(),
                state -> null);
    }

    private void receipt(long requestId) {
        GateHarness.lend(
                FrameWriter.encode(
                        harness.alloc(),
                        BaseCommand.newBuilder()
                                .setType(BaseCommand.Type.THROTTLE_PRODUCER_RECEIPT)
                                .setThrottleProducerReceipt(CommandThrottleProducerReceipt.newBuilder()
                                        .setRequestId(requestId))
                                .build()),
                frame -> notices.receipt(FrameReader.read(frame, new FrameCommand())));
    }
}
