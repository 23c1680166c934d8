package io.sluice.kafka.gates;

import io.netty.buffer.ByteBuf;
import io.sluice.kafka.codec.HandledApi;
import io.sluice.kafka.codec.PartitionRecords;
import io.sluice.kafka.codec.ProduceErrors;
import io.sluice.kafka.codec.ProduceRequestCut;
import io.sluice.kafka.codec.ProduceRequestReader;
import io.sluice.kafka.codec.ProduceVerdicts;
import io.sluice.kafka.codec.RecordBatches;
import io.sluice.kafka.codec.RequestHeader;
import io.sluice.kafka.codec.ResponseFrame;
import io.sluice.kafka.codec.ThrottleTimeField;
import io.sluice.kafka.codec.WireCursor;
import io.sluice.limits.Direction;
import io.sluice.quota.QuotaDecision;
import io.sluice.quota.QuotaPath;
import io.sluice.relay.ConnectionBudget;
import io.sluice.relay.FrameView;
import io.sluice.relay.GateTimer;
import io.sluice.relay.HeldFrames;
import io.sluice.relay.HeldFrames.Held;
import io.sluice.relay.MalformedFrameException;
import io.sluice.relay.Throttling;
import io.sluice.status.TopicMeter;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.protocol.Errors;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.List;
import java.util.function.Consumer;

/**
 * Produce quotas for one connection: every Produce request passes here on its way to the broker,
 * and the response to every one it forwards on its way back. The decision is per partition, so
 * that a topic over its quota does not hold up the others: Kafka answers a connection's requests
 * in order, and a request held whole would delay every topic behind it.
 *
 * <p>Partitions within quota go to the broker at once: the very request when all of it is within
 * quota (the bytes its decoder lent, with no copy or slice), else a cut of it
 * ({@link ProduceRequestCut}, slices of the original). Over quota, the action of the most specific
 * exceeded scope applies to that partition alone:
 * <ul>
 *   <li>{@code delay}: the partition is answered at once with REQUEST_TIMED_OUT, which the client
 *       takes as retriable for that batch alone, sending it again after {@code retry.backoff.ms};
 *       no error reaches the application and nothing makes it refresh metadata.</li>
 *   <li>{@code reject}: the partition is answered with POLICY_VIOLATION and
 *       {@link QuotaDecision#rejectMessage()}, which fails that batch's records to the application.</li>
 *   <li>{@code notify}: the partition goes through, charged, and the response carries a
 *       {@code throttle_time_ms} of at least what the buckets need to recover (KIP-219), after which
 *       the connection takes no request for that long. The Java client then sends nothing to this
 *       broker meanwhile, whatever the topic, so {@code notify} cannot isolate topics. Before
 *       Produce v6 clients do not heed it: {@code delay} instead.</li>
 * </ul>
 * Sluice's answers are merged into the broker's response ({@link ProduceVerdicts}) so that it
 * names exactly the partitions of the request.
 *
 * <p>Idempotent producers number their batches; a batch answered by Sluice leaves a gap the broker
 * would see ({@link SequenceGaps}): until its sequence comes back, the partition's later batches
 * are bounced as well, so the client resends them in order, with no OUT_OF_ORDER_SEQUENCE_NUMBER,
 * no duplicate and no loss.
 *
 * <p>{@code acks=0} has no response to carry a signal: over-quota batches are held in Sluice, in
 * order per topic, and forwarded when the buckets allow, each as a request of its own. What is
 * held counts against the connection limits; past them the connection takes no request until
 * half is released.
 *
 * <p>A request (v13) naming a topic id Sluice has not learnt waits, and the connection takes no
 * other request meanwhile, while {@link io.sluice.kafka.routing.TopicIdLookup} asks the cluster;
 * then it is decided like any other. A partition whose id is still unknown once the cluster
 * answered, or after the request's {@code timeout_ms}, is answered UNKNOWN_TOPIC_ID (retriable:
 * the client refreshes its metadata and sends it again), or with {@code acks=0} dropped, as the
 * broker drops what it cannot take; it never reaches the broker unmetered.
 *
 * <p>Confined to the connection's event loop.
 */
public final class ProduceGate {

    /** Sluice's answer for a partition whose topic id it could not learn; the client retries it. */
    private static final String UNKNOWN_ID_MESSAGE =
            "Sluice could not learn this topic id from the cluster in time; refresh metadata and retry";

    /** Exchanges kept for reuse: a Java client has at most five requests in flight per connection. */
    private static final int POOLED_EXCHANGES = 16;

    private static final int ADMIT = 0;
    private static final int BOUNCE = 1;
    private static final int REJECT = 2;
    private static final int HOLD = 3;
    private static final int UNKNOWN_ID = 4;
    private static final int MALFORMED = 5;
    private static final long NANOS_PER_MILLI = 1_000_000;

    private final GateContext context;
    private final ConnectionBudget budget;
    private final WireCursor cursor = new WireCursor();
    private final PartitionRecords parts = new PartitionRecords();
    private final RecordBatches batches = new RecordBatches();
    private final QuotaDecision decision = new QuotaDecision();
    private final BitSet keep = new BitSet();
    private final BitSet single = new BitSet();
    private final GateExchange.Pool exchanges = new GateExchange.Pool(this::completed, POOLED_EXCHANGES);
    private final Consumer<GatedTopic> ticker = this::tick;
    /** Per topic and per partition of the request being decided. */
    private GatedTopic[] requestTopics = new GatedTopic[4];

    private ConnectionTopics.Entry[] requestEntries = new ConnectionTopics.Entry[4];
    /** Per topic of the request being decided that the connection does not track: why not. */
    private ConnectionTopics.Miss[] misses = new ConnectionTopics.Miss[4];

    private int[] outcomes = new int[8];
    private String[] messages = new String[8];
    private int[] records = new int[8];
    private long[] bytes = new long[8];
    /** The throttle time {@code notify} asks of the request being decided, in milliseconds. */
    private int notifyMillis;

    /** The request that waits for the names of the topic ids it names, a slice of its own; null when none. */
    private ByteBuf awaiting;

    private final RequestHeader awaitingHeader = new RequestHeader();
    private final FrameView awaitingView = new FrameView();
    private final GateTimer awaitTimer;
    private final List<Uuid> unknownIds = new ArrayList<>();
    private long awaitingUntilNanos;
    /** Numbers the lookups, so that only the current one's answer decides the waiting request. */
    private int lookups;
    /** While the request that waited is decided: unknown ids are not looked up twice. */
    private boolean idsLookedUp;

    private boolean closed;

    ProduceGate(GateContext context) {
        this.context = context;
        this.awaitTimer = new GateTimer(context.loop(), GateContext.MAX_TIMER_NANOS, this::awaitedTooLong);
        this.budget = new ConnectionBudget(
                () -> context.services().quotas().limits().connection(), new ConnectionBudget.Pause() {
                    @Override
                    public void pause(ConnectionBudget.Breach breach) {
                        context.pauses().pause(RequestPauses.BUDGET);
                    }

                    @Override
                    public void resume() {
                        context.pauses().resume(RequestPauses.BUDGET);
                    }
                });
    }

    /** The lent Produce request {@code frame}, whose header {@code header} just read; it stays its lender's. */
    public void request(FrameView frame, RequestHeader header) {
        short version = header.apiVersion();
        short acks = ProduceRequestReader.acks(frame, header, cursor);
        parts.readProduceRequest(frame, header.bodyIndex(), version, cursor);
        long now = context.arrived(frame, header);
        grow(parts.topicCount(), parts.partitionCount());
        if (!idsLookedUp && awaitsTopicIds(frame, header, now)) {
            return;
        }
        if (acks == 0) {
            unanswered(frame, now);
            return;
        }
        notifyMillis = 0;
        keep.clear();
        for (int t = 0; t < parts.topicCount(); t++) {
            GatedTopic topic = topic(t, now);
            for (int p = parts.firstPartition(t); p < parts.endPartition(t); p++) {
                count(p);
                outcomes[p] = decide(topic, p, version, now);
                if (outcomes[p] == ADMIT) {
                    keep.set(p);
                }
            }
        }
        if (keep.cardinality() == parts.partitionCount()) {
            context.requests().forward(frame, header, charged(exchange(null)));
            return;
        }
        ProduceVerdicts verdicts = verdicts(version);
        if (keep.isEmpty()) {
            context.requests().answer(header, verdicts.answer(context.out().alloc(), header.correlationId()));
        } else {
            context.requests()
                    .forward(
                            ProduceRequestCut.keep(context.out().alloc(), parts, keep),
                            header,
                            charged(exchange(verdicts)));
        }
    }

    /** Notes in {@code exchange} what each forwarded partition was charged, to give back what the broker refuses. */
    private GateExchange charged(GateExchange exchange) {
        for (int p = keep.nextSetBit(0); p >= 0; p = keep.nextSetBit(p + 1)) {
            int t = parts.topicOf(p);
            if (requestTopics[t] != null) {
                exchange.charged(requestEntries[t], requestTopics[t], parts.partitionIndex(p), records[p], bytes[p]);
            }
        }
        return exchange;
    }

    /** Nothing held, no held batch to forward and no request waiting for its topic ids. */
    public boolean isIdle() {
        return budget.pendingSends() == 0 && awaiting == null;
    }

    /** The connection closes: what is held is released, throttles end, timers stop. */
    public void close() {
        closed = true;
        awaitTimer.cancel();
        if (awaiting != null) {
            awaiting.release();
            awaiting = null;
        }
        context.topics().forEach(entry -> {
            GatedTopic topic = entry.produce;
            if (topic != null) {
                topic.timer.cancel();
                topic.quota.meter().held(-topic.held.messages(), -topic.held.bytes());
                budget.held(-topic.held.bytes());
                budget.sendsDone(topic.held.releaseAll());
                topic.gaps.clear();
                topic.throttle.end();
            }
        });
    }

    /** Counts partition {@code p}'s batches, noting what it costs. */
    private void count(int p) {
        batches.count(parts.buffer(), parts.recordsStart(p), parts.recordsLength(p));
        records[p] = (int) Math.min(Integer.MAX_VALUE, batches.records());
        bytes[p] = batches.bytes();
    }

    /** What becomes of partition {@code p} of an answered request, whose batches {@link #batches} just counted. */
    private int decide(GatedTopic topic, int p, short version, long now) {
        if (batches.overclaimingCount() >= 0) {
            return overclaiming(p);
        }
        if (topic == null) {
            return untracked(p);
        }
        int partition = parts.partitionIndex(p);
        SequenceGaps.Standing standing = batches.idempotent()
                ? topic.gaps.standing(
                        partition, batches.producerId(), batches.producerEpoch(), batches.baseSequence(), now)
                : SequenceGaps.Standing.NONE;
        if (standing == SequenceGaps.Standing.BEHIND) {
            messages[p] = "Sluice delays this batch behind an earlier one of partition " + partition
                    + " that is over its quota; the producer sends it again";
            return BOUNCE;
        }
        QuotaPath path = topic.quota.path(now);
        TopicMeter meter = topic.quota.meter();
        if (path.isUnlimited() || path.tryAcquire(now, records[p], bytes[p], decision)) {
            forwarded(topic, p, standing == SequenceGaps.Standing.AWAITED, now);
            topic.throttle.endIfOver(now, topic.outstanding());
            return ADMIT;
        }
        Throttling throttling = KafkaActions.produce(decision.onExceed(), version);
        if (throttling == Throttling.PAUSE_CLIENT) {
            path.charge(now, records[p], bytes[p]);
            long wait = path.waitNanos(now);
            notifyMillis = Math.max(notifyMillis, GateContext.ceilMillis(wait));
            begin(topic, throttling, meter, now + wait);
            forwarded(topic, p, standing == SequenceGaps.Standing.AWAITED, now);
            return ADMIT;
        }
        boolean reject = throttling == Throttling.REFUSE;
        begin(topic, throttling, meter, now + decision.waitNanos());
        if (batches.idempotent()) {
            topic.gaps.opened(
                    partition, batches.producerId(), batches.producerEpoch(), batches.baseSequence(), now, !reject);
        }
        messages[p] = KafkaActions.answer(throttling, decision);
        return reject ? REJECT : BOUNCE;
    }

    /**
     * What becomes of partition {@code p} of a topic the connection does not track: an invalid name
     * goes on (the broker refuses it and stores nothing), an unknown id is answered UNKNOWN_TOPIC_ID,
     * a topic past the connection's limit is refused; answered or, with {@code acks=0}, dropped.
     */
    private int untracked(int p) {
        ConnectionTopics.Miss miss = misses[parts.topicOf(p)];
        if (miss == ConnectionTopics.Miss.INVALID_NAME) {
            return ADMIT;
        }
        if (miss == ConnectionTopics.Miss.FULL) {
            messages[p] = "Sluice meters at most " + context.topics().maxTopics()
                    + " topics per connection; produce to fewer topics over one connection";
            return REJECT;
        }
        messages[p] = UNKNOWN_ID_MESSAGE;
        return UNKNOWN_ID;
    }

    /**
     * Partition {@code p} holds a batch that claims more records than its bytes can hold, which the
     * broker would refuse as corrupt: Sluice refuses it first, charging nothing, so that its count
     * puts no bucket in debt (or, with {@code acks=0}, drops it).
     */
    private int overclaiming(int p) {
        context.services().stats().protocolError("batch_overclaims_records");
        messages[p] = "Sluice refused this batch: it claims " + batches.overclaimingCount()
                + " records, more than its bytes can hold";
        return MALFORMED;
    }

    /** Partition {@code p} goes to the broker; {@code closesGap} when it is the batch a gap waited for. */
    private void forwarded(GatedTopic topic, int p, boolean closesGap, long now) {
        topic.quota.meter().published(records[p], bytes[p]);
        if (closesGap) {
            long delayed = topic.gaps.closed(parts.partitionIndex(p), now);
            if (delayed >= 0) {
                context.services().throttles().delayed(topic.throttle.scope(), delayed);
            }
        }
    }

    /** An {@code acks=0} request, lent: what is within quota goes now, the rest is held per topic. */
    private void unanswered(FrameView frame, long now) {
        keep.clear();
        boolean whole = true;
        for (int t = 0; t < parts.topicCount(); t++) {
            GatedTopic topic = topic(t, now);
            for (int p = parts.firstPartition(t); p < parts.endPartition(t); p++) {
                count(p);
                if (batches.overclaimingCount() >= 0) {
                    outcomes[p] = overclaiming(p);
                } else {
                    outcomes[p] = topic == null ? untracked(p) : admitOrHold(topic, p, now);
                }
                if (outcomes[p] == ADMIT) {
                    keep.set(p);
                } else {
                    whole = false;
                }
            }
        }
        if (whole) {
            context.out().toUpstream(frame);
            return;
        }
        for (int p = 0; p < parts.partitionCount(); p++) {
            if (outcomes[p] == HOLD) {
                single.clear();
                single.set(p);
                hold(requestTopics[parts.topicOf(p)], heldCut(), p, now);
            }
        }
        if (!keep.isEmpty()) {
            context.out().toUpstream(ProduceRequestCut.keep(context.out().alloc(), parts, keep));
        }
        budget.check();
    }

    private int admitOrHold(GatedTopic topic, int p, long now) {
        if (!topic.held.isEmpty()) {
            return HOLD;
        }
        QuotaPath path = topic.quota.path(now);
        if (path.isUnlimited() || path.tryAcquire(now, records[p], bytes[p], decision)) {
            topic.quota.meter().published(records[p], bytes[p]);
            topic.throttle.endIfOver(now, topic.outstanding());
            return ADMIT;
        }
        begin(
                topic,
                KafkaActions.produceWithoutResponse(decision.onExceed()),
                topic.quota.meter(),
                now + decision.waitNanos());
        return HOLD;
    }

    /**
     * The cut of the partitions in {@link #single}, to hold: slices of the request when they are most
     * of it, else a copy, so that a small partition held does not keep a large request alive and
     * what it pins is what {@code maxHeldBytes} counts.
     */
    private ByteBuf heldCut() {
        ByteBuf cut = ProduceRequestCut.keep(context.out().alloc(), parts, single);
        if (FrameView.pinsLittle(cut.readableBytes(), parts.buffer())) {
            return cut;
        }
        try {
            return context.out().alloc().buffer(cut.readableBytes()).writeBytes(cut);
        } finally {
            cut.release();
        }
    }

    /** Holds {@code request}, the cut of partition {@code p}; takes ownership. */
    private void hold(GatedTopic topic, ByteBuf request, int p, long now) {
        topic.held.add(request, records[p], bytes[p], HeldFrames.NO_SEQUENCE, now);
        topic.quota.meter().held(records[p], bytes[p]);
        topic.throttle.holding(topic.held.messages(), topic.held.bytes());
        budget.sendPending();
        budget.held(bytes[p]);
        topic.timer.schedule(topic.quota.path(now).waitNanos(now));
    }

    /** Timer task: forwards held batches while the buckets allow; ends the throttle once it is over. */
    private void tick(GatedTopic topic) {
        if (closed) {
            return;
        }
        long now = context.clock().nanoTime();
        boolean released = false;
        Held head;
        while ((head = topic.held.peek()) != null) {
            QuotaPath path = topic.quota.path(now);
            if (!path.isUnlimited() && !path.tryAcquire(now, head.messages(), head.bytes(), decision)) {
                topic.timer.schedule(decision.waitNanos());
                break;
            }
            topic.held.poll();
            TopicMeter meter = topic.quota.meter();
            meter.held(-head.messages(), -head.bytes());
            meter.published(head.messages(), head.bytes());
            budget.held(-head.bytes());
            budget.sendsDone(1);
            context.services().throttles().delayed(topic.throttle.scope(), now - head.heldAtNanos());
            context.out().toUpstream(head.frame());
            released = true;
        }
        if (!topic.held.isEmpty()) {
            topic.throttle.holding(topic.held.messages(), topic.held.bytes());
        } else if (!topic.throttle.endIfOver(now, topic.outstanding())) {
            topic.throttle.holding(0, 0);
            long left = topic.throttle.leftNanos(now);
            // Over in time but a gap still open: look again later rather than at once.
            topic.timer.schedule(left > 0 ? left : GateContext.MAX_TIMER_NANOS);
        }
        if (released) {
            context.out().flush();
        }
        budget.check();
    }

    /**
     * Whether the request just read names a topic id that neither this connection nor
     * {@link io.sluice.kafka.routing.TopicIds} knows; then it waits, as a slice of its own, for
     * the lookup (or its {@code timeout_ms}), and no request after it is taken meanwhile. When too
     * many lookups wait Sluice-wide, the request is decided at once.
     */
    private boolean awaitsTopicIds(FrameView frame, RequestHeader header, long now) {
        if (!parts.topicsById()) {
            return false;
        }
        unknownIds.clear();
        for (int t = 0; t < parts.topicCount(); t++) {
            if (context.topics().find(parts, t, now) == null
                    && context.topics().miss() == ConnectionTopics.Miss.UNKNOWN_ID) {
                unknownIds.add(new Uuid(parts.topicIdMsb(t), parts.topicIdLsb(t)));
            }
        }
        if (unknownIds.isEmpty()) {
            return false;
        }
        int lookup = ++lookups;
        if (!context.topicIdLookup().lookUp(List.copyOf(unknownIds), context.loop(), () -> idsLearnt(lookup))) {
            return false;
        }
        long timeoutMillis = Math.max(0, ProduceRequestReader.timeoutMillis(frame, header, cursor));
        awaiting = frame.retainedSlice();
        awaitingUntilNanos = now + timeoutMillis * NANOS_PER_MILLI;
        context.pauses().pause(RequestPauses.TOPIC_IDS);
        awaitTimer.schedule(awaitingUntilNanos - now);
        return true;
    }

    /** Timer task: a request that waited its {@code timeout_ms} for its topic ids is decided without them. */
    private void awaitedTooLong() {
        if (awaiting == null) {
            return;
        }
        long left = awaitingUntilNanos - context.clock().nanoTime();
        if (left > 0) {
            awaitTimer.schedule(left);
            return;
        }
        idsLearnt(lookups);
    }

    /** The lookup {@code lookup} is over: the waiting request is decided with what Sluice knows now. */
    private void idsLearnt(int lookup) {
        if (closed || awaiting == null || lookup != lookups) {
            return;
        }
        awaitTimer.cancel();
        ByteBuf frame = awaiting;
        awaiting = null;
        try {
            awaitingHeader.read(awaitingView.lend(frame, frame.readerIndex(), frame.readableBytes()));
            idsLookedUp = true;
            request(awaitingView, awaitingHeader);
        } finally {
            idsLookedUp = false;
            frame.release();
        }
        context.out().flush();
        context.pauses().resume(RequestPauses.TOPIC_IDS);
    }

    /** Records that the topic is throttled, with the action the gate takes ({@code taken}). */
    private void begin(GatedTopic topic, Throttling taken, TopicMeter meter, long untilNanos) {
        topic.throttle.begin(decision, taken.action(), meter, untilNanos);
        topic.timer.schedule(untilNanos - context.clock().nanoTime());
    }

    /** The gate's state of topic {@code t} of the request, or null for a topic id nobody named. */
    private GatedTopic topic(int t, long now) {
        ConnectionTopics.Entry entry = context.topics().find(parts, t, now);
        GatedTopic topic = null;
        if (entry != null) {
            topic = context.gated(entry, entry.produce, Direction.PUBLISH, ticker);
            entry.produce = topic;
        }
        requestTopics[t] = topic;
        requestEntries[t] = entry;
        misses[t] = entry == null ? context.topics().miss() : null;
        return topic;
    }

    /** What became of each partition of the request just decided, for the response. */
    private ProduceVerdicts verdicts(short version) {
        ProduceVerdicts verdicts = new ProduceVerdicts(version);
        ByteBuf frame = parts.buffer();
        for (int t = 0; t < parts.topicCount(); t++) {
            if (parts.topicsById()) {
                verdicts.topic(null, new Uuid(parts.topicIdMsb(t), parts.topicIdLsb(t)));
            } else {
                verdicts.topic(
                        frame.toString(parts.topicNameIndex(t), parts.topicNameLength(t), StandardCharsets.UTF_8),
                        null);
            }
            for (int p = parts.firstPartition(t); p < parts.endPartition(t); p++) {
                int index = parts.partitionIndex(p);
                switch (outcomes[p]) {
                    case ADMIT -> verdicts.forwarded(index);
                    case BOUNCE -> verdicts.answered(index, KafkaActions.RETRY_ERROR, messages[p]);
                    case UNKNOWN_ID -> verdicts.answered(index, Errors.UNKNOWN_TOPIC_ID, messages[p]);
                    case MALFORMED -> verdicts.answered(index, Errors.CORRUPT_MESSAGE, messages[p]);
                    default -> verdicts.answered(index, KafkaActions.REFUSAL_ERROR, messages[p]);
                }
                messages[p] = null;
            }
        }
        return verdicts;
    }

    private GateExchange exchange(ProduceVerdicts verdicts) {
        return exchanges.take(verdicts, notifyMillis);
    }

    /** The broker's response to {@code exchange}'s request; see {@link Exchange#complete}. */
    private void completed(GateExchange exchange, ResponseFrame response) {
        if (exchange.charges() > 0) {
            giveBackRefused(exchange, response);
        }
        if (exchange.verdicts() != null) {
            response.replace(exchange.verdicts().merge(context.out().alloc(), response.frame(), response.bodyIndex()));
        }
        if (exchange.notifyMillis() > 0) {
            ThrottleTimeField.raise(
                    HandledApi.PRODUCE,
                    response.apiVersion(),
                    response.frame(),
                    response.bodyIndex(),
                    exchange.notifyMillis(),
                    cursor);
            context.pauses().mute(exchange.notifyMillis());
        }
    }

    /**
     * Gives back the charge of each partition the broker refused (it stored nothing of it); a
     * response the full reader cannot read gives nothing back and goes on as it is.
     */
    private void giveBackRefused(GateExchange exchange, ResponseFrame response) {
        try {
            if (!response.produceScan().refusesAny()) {
                return;
            }
            long now = context.clock().nanoTime();
            for (ProduceErrors.Refused refused :
                    ProduceErrors.refused(response.frame(), response.bodyIndex(), response.apiVersion())) {
                exchange.giveBack(refused.topic(), refused.topicId(), refused.partition(), now);
            }
        } catch (MalformedFrameException unreadable) {
            // The client gets it as the broker wrote it; what it means is for the client to find out.
        }
    }

    private void grow(int topicCount, int partitionCount) {
        if (requestTopics.length < topicCount) {
            requestTopics = new GatedTopic[Math.max(topicCount, requestTopics.length * 2)];
            requestEntries = new ConnectionTopics.Entry[requestTopics.length];
            misses = new ConnectionTopics.Miss[requestTopics.length];
        }
        if (outcomes.length < partitionCount) {
            int size = Math.max(partitionCount, outcomes.length * 2);
            outcomes = new int[size];
            messages = Arrays.copyOf(messages, size);
            records = new int[size];
            bytes = new long[size];
        }
    }
}
