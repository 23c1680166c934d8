package io.sluice.relay;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.sluice.limits.ConnectionLimits;
import io.sluice.limits.Limit;
import io.sluice.limits.OnExceed;
import io.sluice.limits.RateLimit;
import io.sluice.limits.ScopeRef;
import io.sluice.quota.QuotaDecision;
import io.sluice.quota.QuotaPath;
import io.sluice.relay.HeldFrames.Held;
import io.sluice.status.ClientIdentity;
import io.sluice.status.CurrentThrottle;
import io.sluice.status.ThrottleSubject;
import io.sluice.status.ThrottledClient;
import io.sluice.status.TopicMeter;
import io.sluice.testing.GateWorld;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The hold toolkit on a manual clock: one holder's frames against a proxy-wide rate of 100 a second, one at a time. */
class HoldTest {

    private static final long MS = 1_000_000;

    private final GateWorld world = new GateWorld("test");
    private final List<String> pauses = new ArrayList<>();
    private ConnectionLimits limits = ConnectionLimits.DEFAULT;
    private final ConnectionBudget budget = new ConnectionBudget(() -> limits, new ConnectionBudget.Pause() {
        @Override
        public void pause(ConnectionBudget.Breach breach) {
            pauses.add("pause " + breach);
        }

        @Override
        public void resume() {
            pauses.add("resume");
        }
    });
    private int flushes;
    private final ConnectionHolds holds =
            new ConnectionHolds(new WakeUps(world.loop, world.loop::clockNanos), budget, world.ledger, () -> flushes++);
    private final List<ByteBuf> made = new ArrayList<>();

    @AfterEach
    void releaseFrames() {
        made.stream().filter(f -> f.refCnt() > 0).forEach(f -> f.release(f.refCnt()));
    }

    /** A producer of topic {@code orders}: admits what the buckets take, forwards into {@link #forwarded}. */
    private final class Producer implements Hold.Holder {
        final QuotaDecision decision = new QuotaDecision();
        final QuotaPath path = world.quotas.publishPath(limits -> List.of());
        final TopicMeter meter = world.activity.meter("test", "orders");
        final CurrentThrottle throttle =
                new CurrentThrottle(world.ledger, new ThrottleSubject("test", "client", "orders", ClientIdentity.NONE));
        final List<String> forwarded = new ArrayList<>();
        final List<String> refused = new ArrayList<>();
        int nothingHeld;
        boolean refuse;
        final Hold hold;

        Producer(Hold.Counted counted) {
            hold = new Hold(holds, MS, 100 * MS, decision, counted, this);
        }

        @Override
        public Hold.Admission admit(Held head, long nowNanos) {
            if (refuse) {
                return Hold.Admission.REFUSED;
            }
            return path.tryAcquire(nowNanos, head.messages(), head.bytes(), decision)
                    ? Hold.Admission.NOW
                    : Hold.Admission.LATER;
        }

        @Override
        public void forward(Held head, long nowNanos) {
            forwarded.add(head.frame().toString(StandardCharsets.UTF_8));
            head.frame().release();
        }

        @Override
        public void refused(Held head, long nowNanos) {
            refused.add(head.frame().toString(StandardCharsets.UTF_8));
            Hold.Holder.super.refused(head, nowNanos);
        }

        @Override
        public void nothingHeld(long nowNanos) {
            nothingHeld++;
            throttle.end();
        }

        @Override
        public TopicMeter meter() {
            return meter;
        }

        @Override
        public CurrentThrottle throttle() {
            return throttle;
        }

        /** Holds {@code text} as a frame of one message, and looks again when the buckets say. */
        void hold(String text) {
            ByteBuf frame = Unpooled.copiedBuffer(text, StandardCharsets.UTF_8);
            made.add(frame);
            long now = world.loop.clockNanos();
            if (!path.tryAcquire(now, 1, frame.readableBytes(), decision)) {
                throttle.begin("proxy", decision.reason(), "delay", meter);
            }
            hold.add(frame, 1, frame.readableBytes(), HeldFrames.NO_SEQUENCE, now);
            hold.lookAgainIn(decision.waitNanos());
        }
    }

    /** One message admitted at a time, the next 10 ms later. */
    private void oneEvery10Ms() {
        world.limit(
                ScopeRef.PROXY,
                Limit.publish(new RateLimit(100.0, null, 0.01, null)).withOnExceed(OnExceed.DELAY));
    }

    @Test
    void heldFramesGoInOrderAsTheBucketsAdmitThemEachRunFlushedOnce() {
        oneEvery10Ms();
        Producer producer = new Producer(Hold.Counted.FRAMES);
        producer.path.tryAcquire(world.loop.clockNanos(), 1, 0, producer.decision); // the bucket is empty
        producer.hold("a");
        producer.hold("b");
        producer.hold("c");
        assertEquals(3, producer.hold.size());

        world.advance(11);
        assertEquals(List.of("a"), producer.forwarded);
        assertEquals(1, flushes);
        assertTrue(producer.hold.isScheduled(), "the timer is armed again for the next frame");
        world.advance(11);
        world.advance(11);
        assertEquals(List.of("a", "b", "c"), producer.forwarded);
        assertEquals(3, flushes);
        assertEquals(1, producer.nothingHeld);
        assertTrue(producer.hold.isEmpty());
        assertFalse(producer.hold.isScheduled());
    }

    @Test
    void theMeterTheBudgetAndTheThrottleRecordCountWhatIsHeld() {
        oneEvery10Ms();
        Producer producer = new Producer(Hold.Counted.FRAMES);
        producer.path.tryAcquire(world.loop.clockNanos(), 1, 0, producer.decision);
        producer.hold("aaaa");
        producer.hold("bbbb");
        assertEquals(8, budget.heldBytes());
        assertEquals(2, producer.meter.heldMessages());
        assertEquals(8, producer.meter.heldBytes());
        ThrottledClient shown = world.throttled().get(0);
        assertEquals(2, shown.heldMessages());
        assertEquals(8, shown.heldBytes());

        world.advance(11);
        assertEquals(4, budget.heldBytes(), "a released frame's bytes are credited");
        assertEquals(1, producer.meter.heldMessages());
        assertEquals(1, world.throttled().get(0).heldMessages());
        world.advance(11);
        assertEquals(0, budget.heldBytes());
        assertEquals(0, producer.meter.heldBytes());
        assertEquals(List.of(), world.throttled(), "the holder ended its throttle once nothing was held");
    }

    @Test
    void messagesAreShownWhenTheHolderCountsThem() {
        oneEvery10Ms();
        Producer producer = new Producer(Hold.Counted.MESSAGES);
        producer.path.tryAcquire(world.loop.clockNanos(), 1, 0, producer.decision);
        producer.throttle.begin("proxy", "publish_rate", "delay", producer.meter);
        ByteBuf batch = Unpooled.copiedBuffer("batch", StandardCharsets.UTF_8);
        made.add(batch);
        producer.hold.add(batch, 7, 5, HeldFrames.NO_SEQUENCE, world.loop.clockNanos());
        assertEquals(7, world.throttled().get(0).heldMessages());
    }

    @Test
    void heldBytesOverTheLimitPauseTheConnectionUntilHalfIsReleased() {
        oneEvery10Ms();
        limits = new ConnectionLimits(100, 10);
        Producer producer = new Producer(Hold.Counted.FRAMES);
        producer.path.tryAcquire(world.loop.clockNanos(), 1, 0, producer.decision);
        producer.hold("aaaa");
        producer.hold("bbbb");
        assertEquals(List.of(), pauses);
        producer.hold("cccc");
        assertEquals(List.of("pause HELD_BYTES"), pauses);

        world.advance(11);
        assertEquals(List.of("pause HELD_BYTES"), pauses, "8 bytes held are more than half of 10");
        world.advance(11);
        assertEquals(List.of("pause HELD_BYTES", "resume"), pauses);
    }

    @Test
    void aRefusedFrameIsHandedBackAndReleasedInOrder() {
        oneEvery10Ms();
        Producer producer = new Producer(Hold.Counted.FRAMES);
        producer.path.tryAcquire(world.loop.clockNanos(), 1, 0, producer.decision);
        producer.hold("a");
        producer.hold("b");
        producer.refuse = true;
        world.advance(11);
        assertEquals(List.of("a", "b"), producer.refused);
        assertEquals(List.of(), producer.forwarded);
        assertTrue(made.stream().allMatch(f -> f.refCnt() == 0));
        assertEquals(0, budget.heldBytes());
        assertEquals(1, flushes, "what the holder wrote for them is flushed");
    }

    @Test
    void closingReleasesEveryFrameAndGivesBackWhatItCounted() {
        oneEvery10Ms();
        Producer producer = new Producer(Hold.Counted.FRAMES);
        producer.path.tryAcquire(world.loop.clockNanos(), 1, 0, producer.decision);
        producer.hold("a");
        producer.hold("b");
        producer.hold("c");

        assertEquals(3, producer.hold.close());
        assertTrue(made.stream().allMatch(f -> f.refCnt() == 0), "every held buffer is released");
        assertEquals(0, budget.heldBytes());
        assertEquals(0, producer.meter.heldMessages());
        assertEquals(0, producer.meter.heldBytes());
        assertFalse(producer.hold.isScheduled());
        world.advance(100);
        assertEquals(List.of(), producer.forwarded);
        assertEquals(0, producer.nothingHeld, "a closed hold's timer does not run");
    }

    @Test
    void theHoldsOfAConnectionShareOneWakeUpArmedAtTheEarliestDueTime() {
        oneEvery10Ms();
        Producer slow = new Producer(Hold.Counted.FRAMES);
        Producer fast = new Producer(Hold.Counted.FRAMES);
        slow.hold.lookAgainIn(50 * MS);
        fast.hold.lookAgainIn(5 * MS);
        world.advance(5);
        assertEquals(1, fast.nothingHeld);
        assertEquals(0, slow.nothingHeld);
        world.advance(45);
        assertEquals(1, slow.nothingHeld);
    }
}
