package io.sluice.kafka.gates;

import io.sluice.kafka.codec.PartitionRecords;
import io.sluice.kafka.codec.ProduceVerdicts;
import io.sluice.kafka.codec.RecordBatches;
import io.sluice.kafka.codec.RequestHeader;
import io.sluice.quota.QuotaDecision;
import io.sluice.quota.QuotaPath;
import io.sluice.relay.FrameView;
import io.sluice.relay.Throttling;

/**
 * The partition decisions of a Produce request that gets a response ({@code acks} 1 or -1): each
 * partition within quota goes to the broker, each over it is answered by Sluice or goes on with a
 * throttle time ({@link ProduceGate} says which action does what), and the request leaves once:
 * whole, cut to what goes on with Sluice's answers merged into the response later, or answered by
 * Sluice alone; or, when its over-quota batches are due soon on a connection of one topic, charged
 * and held until then ({@link ProduceHold}). Idempotent batches behind one Sluice answered are
 * bounced too ({@link SequenceGaps}).
 * Confined to the connection's event loop.
 */
final class ProduceDecisions {

    /** Exchanges kept for reuse: a Java client has at most five requests in flight per connection. */
    private static final int POOLED_EXCHANGES = 16;

    private final GateContext context;
    private final ProduceRequestParts request;
    private final ProduceHold hold;
    private final ProduceMute mute;
    private final QuotaDecision decision = new QuotaDecision();
    private final GateExchange.Pool exchanges;
    private final ProduceRequestParts.TrackedPartition tracked = this::decide;
    /** The version of the request being decided. */
    private short version;
    /** The throttle time {@code notify} asks of the request being decided, in milliseconds. */
    private int notifyMillis;
    /** How long the request being decided is held for its over-quota batches' turn, in nanoseconds; 0 for not. */
    private long holdNanos;
    /** The scope of the throttle the request being decided is held for. */
    private String holdScope;

    ProduceDecisions(
            GateContext context,
            ProduceRequestParts request,
            ProduceHold hold,
            ProduceMute mute,
            GateExchange.Owner completion) {
        this.context = context;
        this.request = request;
        this.hold = hold;
        this.mute = mute;
        this.exchanges = new GateExchange.Pool(completion, POOLED_EXCHANGES);
    }

    /**
     * Decides the request {@link #request} just read from the lent {@code frame} (which stays its
     * lender's), whose header {@code header} read, into {@code verdict}.
     */
    GateVerdict decide(FrameView frame, RequestHeader header, long now, GateVerdict verdict) {
        version = header.apiVersion();
        notifyMillis = 0;
        holdNanos = 0;
        request.decideEach(tracked, now);
        if (request.allForwarded()) {
            GateExchange exchange = notified(charged(exchanges.take(null, notifyMillis)));
            if (holdNanos > 0) {
                hold.hold(frame.retainedSlice(), exchange, holdScope, now, holdNanos);
                return verdict.hold();
            }
            return verdict.forward(null, exchange);
        }
        ProduceVerdicts verdicts = request.verdicts(version);
        if (request.noneForwarded()) {
            return verdict.answer(verdicts.answer(context.out().alloc(), header.correlationId()));
        }
        GateExchange exchange = notified(charged(exchanges.take(verdicts, notifyMillis)));
        if (holdNanos > 0) {
            hold.hold(request.cut(request.forwarded()), exchange, holdScope, now, holdNanos);
            return verdict.hold();
        }
        return verdict.forward(request.cut(request.forwarded()), exchange);
    }

    /**
     * A request {@code notify} let through over quota: the connection reads nothing more until its
     * buckets recover, from now rather than from the response, so that the requests the client has
     * in flight behind it wait too instead of each going through charged ({@link ProduceMute}).
     */
    private GateExchange notified(GateExchange exchange) {
        if (notifyMillis > 0) {
            mute.mute(exchange, notifyMillis);
        }
        return exchange;
    }

    /** Notes in {@code exchange} what each forwarded partition was charged, to give back what the broker refuses. */
    private GateExchange charged(GateExchange exchange) {
        PartitionRecords parts = request.parts();
        for (int p = request.forwarded().nextSetBit(0);
                p >= 0;
                p = request.forwarded().nextSetBit(p + 1)) {
            ProduceRequestParts.Topic topic = request.topicAt(parts.topicOf(p));
            if (topic.gated != null) {
                ProduceRequestParts.Partition partition = request.partitionAt(p);
                exchange.charged(
                        (TopicTable.Entry) topic.found,
                        topic.gated,
                        parts.partitionIndex(p),
                        partition.records,
                        partition.bytes);
            }
        }
        return exchange;
    }

    /** Decides partition {@code p} of a tracked topic, whose batches were just counted. */
    private void decide(GatedTopic topic, int p, ProduceRequestParts.Partition partition, long now) {
        RecordBatches batches = request.batches();
        int index = request.parts().partitionIndex(p);
        hold.produced(topic, now);
        SequenceGaps.Standing standing = batches.idempotent()
                ? topic.gaps.standing(index, batches.producerId(), batches.producerEpoch(), batches.baseSequence(), now)
                : SequenceGaps.Standing.NONE;
        if (standing == SequenceGaps.Standing.BEHIND) {
            request.decided(
                    p,
                    ProduceOutcome.BOUNCE,
                    "Sluice delays this batch behind an earlier one of partition " + index
                            + " that is over its quota; the producer sends it again");
            return;
        }
        QuotaPath path = topic.quota.path(now);
        if (path.isUnlimited() || path.tryAcquire(now, partition.records, partition.bytes, decision)) {
            forwarded(topic, index, partition, standing == SequenceGaps.Standing.AWAITED, now);
            topic.throttle.endIfOver(now, topic.outstanding());
            request.decided(p, ProduceOutcome.FORWARD, null);
            return;
        }
        Throttling throttling = KafkaActions.produce(decision.onExceed(), version);
        if (throttling == Throttling.PAUSE_CLIENT) {
            path.charge(now, partition.records, partition.bytes);
            long wait = path.waitNanos(now);
            notifyMillis = Math.max(notifyMillis, GateContext.ceilMillis(wait));
            context.throttled(topic, decision, throttling, now + wait);
            forwarded(topic, index, partition, standing == SequenceGaps.Standing.AWAITED, now);
            request.decided(p, ProduceOutcome.FORWARD, null);
            return;
        }
        if (throttling == Throttling.RETRY && hold.mayHold(request.parts().topicCount(), decision.waitNanos(), now)) {
            // Charged now, as if it went when due: what comes after it sees the debt.
            path.charge(now, partition.records, partition.bytes);
            holdNanos = Math.max(holdNanos, decision.waitNanos());
            context.throttled(topic, decision, Throttling.HOLD, now + decision.waitNanos());
            holdScope = topic.throttle.scope();
            forwarded(topic, index, partition, standing == SequenceGaps.Standing.AWAITED, now);
            request.decided(p, ProduceOutcome.FORWARD, null);
            return;
        }
        boolean reject = throttling == Throttling.REFUSE;
        context.throttled(topic, decision, throttling, now + decision.waitNanos());
        if (batches.idempotent()) {
            topic.gaps.opened(
                    index, batches.producerId(), batches.producerEpoch(), batches.baseSequence(), now, !reject);
        }
        request.decided(
                p, reject ? ProduceOutcome.REJECT : ProduceOutcome.BOUNCE, KafkaActions.answer(throttling, decision));
    }

    /** Partition {@code index} goes to the broker; {@code closesGap} when it is the batch a gap waited for. */
    private void forwarded(
            GatedTopic topic, int index, ProduceRequestParts.Partition partition, boolean closesGap, long now) {
        topic.quota.meter().published(partition.records, partition.bytes);
        if (closesGap) {
            long delayed = topic.gaps.closed(index, now);
            if (delayed >= 0) {
                context.services().throttles().delayed(topic.throttle.scope(), delayed);
            }
        }
    }
}
