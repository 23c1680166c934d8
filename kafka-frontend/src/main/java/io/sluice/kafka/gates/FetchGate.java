package io.sluice.kafka.gates;

import io.netty.buffer.ByteBuf;
import io.sluice.kafka.codec.FetchRequestReader;
import io.sluice.kafka.codec.FetchResponseTrim;
import io.sluice.kafka.codec.HandledApi;
import io.sluice.kafka.codec.PartitionRecords;
import io.sluice.kafka.codec.RecordBatches;
import io.sluice.kafka.codec.RecordsKept;
import io.sluice.kafka.codec.RequestHeader;
import io.sluice.kafka.codec.ResponseFrame;
import io.sluice.kafka.codec.ThrottleTimeField;
import io.sluice.kafka.codec.WireCursor;
import io.sluice.limits.Direction;
import io.sluice.quota.QuotaDecision;
import io.sluice.quota.QuotaPath;
import io.sluice.relay.FrameView;
import io.sluice.relay.Throttling;
import org.apache.kafka.common.Uuid;

import java.util.ArrayList;
import java.util.List;

/**
 * Fetch quotas for one connection, enforced on what the broker answers: the batches of each
 * partition are charged to its topic's buckets as they are forwarded, and once a bucket refuses,
 * the rest of that partition's records are cut off at that batch boundary
 * ({@link FetchResponseTrim}). The consumer takes what it got and asks again from the first
 * offset it did not get; every other partition of the response goes on untouched, so a throttled
 * topic does not slow the others fetched with it. Nothing is reordered or lost, and fetch sessions
 * (KIP-227) are unaffected: the broker's session state is only what the client's requests say.
 *
 * <p>A consumer that receives nothing at all asks again at once, and the broker, having the data,
 * answers at once: that would spin. So when a response carried records but Sluice cut them all,
 * the connection's next Fetch request waits in Sluice until some bucket admits again, no longer
 * than the request's own {@code max_wait_ms} (what the broker itself may hold it for, and which
 * the client allows for in its timeout); nothing behind it is read meanwhile, to keep the order.
 *
 * <p>{@code notify} (from Fetch v8, whose clients heed it) forwards everything, charges it, and
 * raises the response's {@code throttle_time_ms} to what the buckets need, muting the connection
 * for as long; before v8, and for {@code reject}, which has no meaning for records already
 * written, the action is {@code delay} ({@link KafkaActions#fetch}).
 *
 * <p>Records of a topic id (Fetch v13+) Sluice has not learnt are cut off, like records over quota,
 * while {@link io.sluice.kafka.routing.TopicIdLookup} asks the cluster for its name; the consumer
 * fetches them again once they can be charged, so none is forwarded unmetered. So are the records
 * of a topic past what the connection tracks ({@link TopicTable#maxTopics()}).
 *
 * <p>Confined to the connection's event loop.
 */
public final class FetchGate {

    private static final int POOLED_EXCHANGES = 4;
    private static final long NANOS_PER_MILLI = 1_000_000;
    /** How long the next Fetch waits after records of unknown topic ids were cut: time for the lookup. */
    static final long UNKNOWN_ID_WAIT_NANOS = 100 * NANOS_PER_MILLI;

    private final GateContext context;
    private final WireCursor cursor = new WireCursor();
    private final PartitionRecords parts = new PartitionRecords();
    private final QuotaDecision decision = new QuotaDecision();
    private final GateExchange.Pool exchanges = new GateExchange.Pool(this::completed, POOLED_EXCHANGES);
    private final HeldRequest held;
    private final GateVerdict verdict = new GateVerdict();
    private final FetchRelease release = new FetchRelease();
    /** Per partition of the response being charged: how much of its records it keeps. */
    private final RecordsKept kept = new RecordsKept();
    /** What charging the current response came to. */
    private boolean forwardedAny;

    private long quietNanos;
    private long notifyNanos;
    /** Until when the next Fetch request waits, after a response whose records were all cut. */
    private long quietUntilNanos;

    private String quietScope = "topic";
    private final List<Uuid> unknownIds = new ArrayList<>();
    private boolean closed;

    FetchGate(GateContext context) {
        this.context = context;
        this.held = new HeldRequest(context, RequestPauses.FETCH_HELD, this::releaseHeldIfDue);
    }

    /**
     * What becomes of the lent Fetch request {@code frame}, whose header {@code header} just read; it
     * stays its lender's.
     */
    public GateVerdict request(FrameView frame, RequestHeader header) {
        int maxWaitMillis = FetchRequestReader.maxWaitMillis(frame, header, cursor);
        long now = context.arrived(frame, header);
        long quiet = quietUntilNanos - now;
        if (quiet > 0 && maxWaitMillis > 0) {
            long until = now + Math.min(quiet, maxWaitMillis * NANOS_PER_MILLI);
            held.hold(frame, now, until, until - now);
            return verdict.hold();
        }
        return verdict.forward(null, exchange());
    }

    /** The connection closes: a held request is dropped, throttles end, timers stop. */
    public void close() {
        closed = true;
        held.drop();
        context.topics().forEach(entry -> {
            GatedTopic topic = entry.fetch;
            if (topic != null) {
                topic.hold.close();
                topic.throttle.end();
            }
        });
    }

    private void releaseHeldIfDue() {
        if (closed || !held.isHeld()) {
            return;
        }
        long now = context.clock().nanoTime();
        if (!held.isOver(now)) {
            held.lookAgainIn(now, GateContext.MAX_TIMER_NANOS);
            return;
        }
        context.services().throttles().delayed(quietScope, now - held.heldAtNanos());
        held.forward(exchange());
    }

    /** The broker's response to {@code exchange}'s request; see {@link Exchange#complete}. */
    private void completed(GateExchange exchange, ResponseFrame response) {
        short version = response.apiVersion();
        parts.readFetchResponse(response.frame(), response.bodyIndex(), version, cursor);
        long now = context.clock().nanoTime();
        chargeAll(version, now);
        if (kept.anyCut()) {
            response.replace(FetchResponseTrim.trim(context.out().alloc(), parts, kept));
        }
        if (notifyNanos > 0) {
            int millis = GateContext.ceilMillis(notifyNanos);
            ThrottleTimeField.raise(HandledApi.FETCH, version, response.frame(), response.bodyIndex(), millis, cursor);
            context.pauses().mute(millis);
        }
        if (forwardedAny) {
            quietUntilNanos = now;
        } else if (kept.anyCut()) {
            quietUntilNanos = now + quietNanos;
        }
    }

    /** Charges and counts each partition's batches of the response read into {@link #parts}; says in {@link #kept} what each keeps. */
    private void chargeAll(short version, long now) {
        kept.reset(parts.partitionCount());
        forwardedAny = false;
        quietNanos = Long.MAX_VALUE;
        notifyNanos = 0;
        ByteBuf frame = parts.buffer();
        unknownIds.clear();
        for (int t = 0; t < parts.topicCount(); t++) {
            TopicTable.Lookup found = context.topics().find(parts, t, now);
            GatedTopic topic = found instanceof TopicTable.Entry entry ? gated(entry) : null;
            for (int p = parts.firstPartition(t); p < parts.endPartition(t); p++) {
                if (parts.recordsLength(p) <= 0) {
                    continue;
                }
                if (topic != null) {
                    charge(topic, p, frame, version, now);
                } else if (found != TopicTable.Miss.INVALID_NAME) {
                    cutUntracked(t, p, found);
                }
            }
        }
        if (!unknownIds.isEmpty()) {
            context.topicIdLookup().lookUp(List.copyOf(unknownIds), context.loop(), () -> {});
        }
    }

    /**
     * Cuts off partition {@code p}'s records, of topic {@code t} that cannot be charged: an id Sluice
     * has not learnt (which it then looks up), or a topic past what the connection tracks;
     * {@code miss} says which.
     */
    private void cutUntracked(int t, int p, TopicTable.Lookup miss) {
        kept.cut(p, 0);
        quietNanos = Math.min(quietNanos, UNKNOWN_ID_WAIT_NANOS);
        if (miss != TopicTable.Miss.UNKNOWN_ID) {
            return;
        }
        Uuid id = new Uuid(parts.topicIdMsb(t), parts.topicIdLsb(t));
        if (!unknownIds.contains(id)) {
            unknownIds.add(id);
        }
    }

    private void charge(GatedTopic topic, int p, ByteBuf frame, short version, long now) {
        int start = parts.recordsStart(p);
        int end = start + parts.recordsLength(p);
        QuotaPath path = topic.quota.path(now);
        boolean limited = !path.isUnlimited();
        boolean notifying = false;
        long records = 0;
        int index = start;
        int size;
        while ((size = RecordBatches.batchSize(frame, index, end)) > 0) {
            int count = RecordBatches.recordCount(frame, index);
            if (notifying) {
                path.charge(now, count, size);
            } else if (limited && !path.tryAcquire(now, count, size, decision)) {
                Throttling throttling = KafkaActions.fetch(decision.onExceed(), version);
                if (throttling != Throttling.PAUSE_CLIENT) {
                    trim(topic, p, index - start, now);
                    break;
                }
                notifying = true;
                path.charge(now, count, size);
                long wait = path.waitNanos(now);
                topic.throttle.begin(decision, throttling.action(), topic.quota.meter(), now + wait);
                topic.hold.lookAgainIn(wait);
            }
            records += count;
            index += size;
        }
        if (notifying) {
            notifyNanos = Math.max(notifyNanos, path.waitNanos(now));
        }
        if (records > 0) {
            forwardedAny = true;
            topic.quota.meter().dispatched((int) Math.min(Integer.MAX_VALUE, records), index - start);
            if (!kept.isCut(p) && !notifying) {
                topic.throttle.endIfOver(now, false);
            }
        }
    }

    /** Cuts partition {@code p}'s records to their first {@code length} bytes: the batches the buckets admitted. */
    private void trim(GatedTopic topic, int p, int length, long now) {
        kept.cut(p, length);
        topic.throttle.begin(decision, Throttling.HOLD.action(), topic.quota.meter(), now + decision.waitNanos());
        topic.hold.lookAgainIn(decision.waitNanos());
        if (decision.waitNanos() < quietNanos) {
            quietNanos = decision.waitNanos();
            quietScope = topic.throttle.scope();
        }
    }

    private GatedTopic gated(TopicTable.Entry entry) {
        entry.fetch = context.gated(entry, entry.fetch, Direction.DISPATCH, release);
        return entry.fetch;
    }

    private GateExchange exchange() {
        return exchanges.take(null, 0);
    }
}
