package io.sluice.kafka.gates;

import io.netty.buffer.ByteBuf;
import io.sluice.kafka.codec.PartitionRecords;
import io.sluice.quota.QuotaDecision;
import io.sluice.quota.QuotaPath;
import io.sluice.relay.ConnectionBudget;
import io.sluice.relay.FrameView;
import io.sluice.relay.HeldFrames;
import io.sluice.relay.HeldFrames.Held;
import io.sluice.relay.Hold;

import java.util.BitSet;

/**
 * Produce requests with {@code acks=0}, which no response can carry a signal back to: what is
 * within quota goes to the broker at once, the rest is held in Sluice, in order per topic, and
 * forwarded when the buckets allow, each partition as a request of its own, by each topic's
 * {@link Hold}. What is held counts against the connection's limits ({@link ConnectionBudget});
 * past them the connection takes no request until half is released. Also what each produce topic's
 * timer does once nothing is held: it ends the topic's throttle once it is over, whatever the
 * request's {@code acks}. Confined to the connection's event loop.
 */
final class HeldProduce implements TopicRelease {

    private final GateContext context;
    private final ConnectionBudget budget;
    private final QuotaDecision decision = new QuotaDecision();
    private final BitSet single = new BitSet();
    /** A held batch let go. */
    private final GateVerdict letGo = new GateVerdict();

    private final ProduceRequestParts.TrackedPartition admitOrHold = this::admitOrHold;
    /** The request being taken, during {@link #take}. */
    private ProduceRequestParts request;

    HeldProduce(GateContext context) {
        this.context = context;
        this.budget = context.holds().budget();
    }

    /** Nothing held, no held batch to forward. */
    boolean isIdle() {
        return budget.pendingSends() == 0;
    }

    /**
     * The {@code acks=0} request {@code request} just read, decided into {@code verdict}: the whole
     * of it, or the cut of what is within quota, goes on unanswered; the rest is held here.
     */
    GateVerdict take(ProduceRequestParts request, long now, GateVerdict verdict) {
        this.request = request;
        request.decideEach(admitOrHold, now);
        PartitionRecords parts = request.parts();
        if (request.allForwarded()) {
            return verdict.forwardUnanswered(null);
        }
        for (int p = 0; p < parts.partitionCount(); p++) {
            if (request.partitionAt(p).outcome == ProduceOutcome.HOLD) {
                single.clear();
                single.set(p);
                hold(request.topicAt(parts.topicOf(p)).gated, heldCut(), request.partitionAt(p), now);
            }
        }
        budget.check();
        return request.noneForwarded() ? verdict.hold() : verdict.forwardUnanswered(request.cut(request.forwarded()));
    }

    /** Partition {@code p} goes now when within quota and nothing of its topic is held before it, else it is held. */
    private void admitOrHold(GatedTopic topic, int p, ProduceRequestParts.Partition partition, long now) {
        request.decided(p, admitsNow(topic, partition, now) ? ProduceOutcome.FORWARD : ProduceOutcome.HOLD, null);
    }

    private boolean admitsNow(GatedTopic topic, ProduceRequestParts.Partition partition, long now) {
        if (!topic.hold.isEmpty()) {
            return false;
        }
        QuotaPath path = topic.quota.path(now);
        if (path.isUnlimited() || path.tryAcquire(now, partition.records, partition.bytes, decision)) {
            topic.quota.meter().published(partition.records, partition.bytes);
            topic.throttle.endIfOver(now, topic.outstanding());
            return true;
        }
        context.throttled(
                topic, decision, KafkaActions.produceWithoutResponse(decision.onExceed()), now + decision.waitNanos());
        return false;
    }

    /**
     * The cut of the partition in {@link #single}, to hold: slices of the request when they are most
     * of it, else a copy, so that a small partition held does not keep a large request alive and
     * what it pins is what {@code maxHeldBytes} counts.
     */
    private ByteBuf heldCut() {
        ByteBuf cut = request.cut(single);
        if (FrameView.pinsLittle(cut.readableBytes(), request.parts().buffer())) {
            return cut;
        }
        try {
            return context.out().alloc().buffer(cut.readableBytes()).writeBytes(cut);
        } finally {
            cut.release();
        }
    }

    /** Holds {@code cut}, of one partition, {@code partition}; takes ownership. */
    private void hold(GatedTopic topic, ByteBuf cut, ProduceRequestParts.Partition partition, long now) {
        budget.sendPending();
        topic.hold.add(cut, partition.records, partition.bytes, HeldFrames.NO_SEQUENCE, now);
        topic.hold.lookAgainIn(topic.quota.path(now).waitNanos(now));
    }

    @Override
    public QuotaDecision decision() {
        return decision;
    }

    /** A held batch goes when every bucket of its topic admits it. */
    @Override
    public Hold.Admission admit(GatedTopic topic, Held head, long nowNanos) {
        QuotaPath path = topic.quota.path(nowNanos);
        return path.isUnlimited() || path.tryAcquire(nowNanos, head.messages(), head.bytes(), decision)
                ? Hold.Admission.NOW
                : Hold.Admission.LATER;
    }

    /** A held batch admitted goes to the broker as a request of its own, unanswered. */
    @Override
    public void forward(GatedTopic topic, Held head, long nowNanos) {
        topic.quota.meter().published(head.messages(), head.bytes());
        budget.sendsDone(1);
        context.out().act(letGo.forwardUnanswered(head.frame()), null, null);
    }

    @Override
    public void nothingHeld(GatedTopic topic, long nowNanos) {
        if (!topic.throttle.endIfOver(nowNanos, topic.outstanding())) {
            topic.throttle.holding(0, 0);
            long left = topic.throttle.leftNanos(nowNanos);
            // Over in time but a gap still open: look again later rather than at once.
            topic.hold.lookAgainIn(left > 0 ? left : GateContext.MAX_TIMER_NANOS);
        }
    }

    /** The connection closes: what is held is released, throttles end, timers stop. */
    void close() {
        context.topics().forEach(entry -> {
            GatedTopic topic = entry.produce;
            if (topic != null) {
                budget.sendsDone(topic.hold.close());
                topic.gaps.clear();
                topic.throttle.end();
            }
        });
    }
}
