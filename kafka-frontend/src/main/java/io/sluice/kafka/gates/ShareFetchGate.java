package io.sluice.kafka.gates;

import io.sluice.kafka.codec.MessageFrames;
import io.sluice.kafka.codec.RequestHeader;
import io.sluice.kafka.codec.ResponseFrame;
import io.sluice.kafka.codec.ShareFetchRequestReader;
import io.sluice.kafka.codec.WireCursor;
import io.sluice.limits.Direction;
import io.sluice.quota.QuotaDecision;
import io.sluice.quota.QuotaPath;
import io.sluice.relay.FrameView;
import io.sluice.relay.MalformedFrameException;
import io.sluice.relay.Throttling;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.message.ShareFetchResponseData;

import java.util.ArrayList;
import java.util.List;

/**
 * Dispatch quotas for share groups (KIP-932) on one connection, acting before the request goes up
 * (docs/KAFKA.md, "Share groups"). A share fetch acquires the records it returns for its member:
 * records Sluice cut from the answer, as it cuts a Fetch's, would stay locked until their
 * acquisition lock timed out and would count a delivery that never happened. So the gate lowers
 * the request's {@code max_records} and {@code max_bytes} to what the buckets of the share
 * session's topics have left, the least of them; a request they leave nothing for waits in Sluice,
 * at most its {@code max_wait_ms} (what the broker may hold it for, which the client allows for in
 * its timeout), and then goes asking for one record. What comes back is charged to each topic by
 * the records it acquired and their bytes: the broker may return more than asked (whole batches),
 * which leaves a bucket in debt and the next request waiting longer, so the rate holds.
 *
 * <p>A share session's topics are those its requests named since it opened (epoch 0) and did not
 * forget, at most as many as the connection tracks. A topic id Sluice has not learnt is looked up,
 * and the request waits for the lookup as it waits for a bucket. ShareAcknowledge carries no
 * records and is not metered.
 *
 * <p>Confined to the connection's event loop.
 */
public final class ShareFetchGate {

    private static final int POOLED_EXCHANGES = 4;
    private static final long NANOS_PER_MILLI = 1_000_000;

    private final GateContext context;
    private final WireCursor cursor = new WireCursor();
    private final ShareFetchRequestReader reader = new ShareFetchRequestReader();
    private final QuotaDecision decision = new QuotaDecision();
    private final GateExchange.Pool exchanges = new GateExchange.Pool(this::completed, POOLED_EXCHANGES);
    private final FetchRelease release = new FetchRelease();
    private final HeldRequest held;
    private final GateVerdict verdict = new GateVerdict();
    private final List<Uuid> unknownIds = new ArrayList<>();
    private final ShareSessionTopics session = new ShareSessionTopics();
    private final ShareFetchMaxima maxima = new ShareFetchMaxima();
    /** What the buckets of the session's topics have left: set by {@link #allowance}. */
    private long allowedRecords;

    private long allowedBytes;
    private GatedTopic tightest;
    private boolean closed;

    ShareFetchGate(GateContext context) {
        this.context = context;
        this.held = new HeldRequest(context, RequestPauses.FETCH_HELD, this::releaseHeldIfDue);
    }

    /**
     * What becomes of the lent ShareFetch request {@code frame}, whose header {@code header} just
     * read; it stays its lender's.
     */
    public GateVerdict request(FrameView frame, RequestHeader header) {
        long now = context.arrived(frame, header);
        reader.read(frame, header, cursor);
        maxima.readFrom(reader);
        follow(now);
        if (allowance(now) || reader.maxWaitMillis() <= 0) {
            maxima.lower(frame, allowedRecords, allowedBytes);
            return verdict.forward(null, exchanges.take(null, 0));
        }
        held.hold(frame, now, now + reader.maxWaitMillis() * NANOS_PER_MILLI, waitNanos(now));
        return verdict.hold();
    }

    /** The connection closes: a held request is dropped, throttles end, timers stop. */
    public void close() {
        closed = true;
        held.drop();
    }

    /** Keeps the share session's topics as the request just read changes them. */
    private void follow(long now) {
        if (reader.sessionEpoch() == ShareFetchRequestReader.NEW_SESSION) {
            session.open();
        }
        for (int t = 0; t < reader.forgottenCount(); t++) {
            session.forget(reader.forgottenIdMsb(t), reader.forgottenIdLsb(t));
        }
        unknownIds.clear();
        for (int t = 0; t < reader.topicCount(); t++) {
            session.add(
                    reader.topicIdMsb(t), reader.topicIdLsb(t), context.topics().maxTopics());
        }
        for (int t = 0; t < session.count(); t++) {
            long msb = session.idMsb(t);
            long lsb = session.idLsb(t);
            if (context.topics().findById(msb, lsb, now) == TopicTable.Miss.UNKNOWN_ID) {
                unknownIds.add(new Uuid(msb, lsb));
            }
        }
        if (!unknownIds.isEmpty()) {
            context.topicIdLookup().lookUp(List.copyOf(unknownIds), context.loop(), this::releaseHeldIfDue);
        }
    }

    /**
     * Whether a request may go now: every topic of the session is known and has something left.
     * Sets {@link #allowedRecords} and {@link #allowedBytes} to the least they have left, and
     * {@link #tightest} (with {@link #decision}) to the topic that has nothing, if one has not.
     */
    private boolean allowance(long now) {
        allowedRecords = Long.MAX_VALUE;
        allowedBytes = Long.MAX_VALUE;
        tightest = null;
        boolean unknown = false;
        for (int t = 0; t < session.count(); t++) {
            TopicTable.Lookup found = context.topics().findById(session.idMsb(t), session.idLsb(t), now);
            if (!(found instanceof TopicTable.Entry entry)) {
                unknown |= found == TopicTable.Miss.UNKNOWN_ID;
                continue;
            }
            GatedTopic topic = gated(entry);
            QuotaPath path = topic.quota.path(now);
            if (path.isUnlimited()) {
                continue;
            }
            allowedRecords = Math.min(allowedRecords, path.balance(now, false));
            allowedBytes = Math.min(allowedBytes, path.balance(now, true));
            if (path.tryAcquire(now, 0, 0, decision)) {
                topic.throttle.endIfOver(now, false);
            } else if (tightest == null) {
                tightest = topic;
                topic.throttle.begin(
                        decision, Throttling.HOLD.action(), topic.quota.meter(), now + decision.waitNanos());
                topic.hold.lookAgainIn(decision.waitNanos());
            }
        }
        return !unknown && tightest == null && allowedRecords > 0 && allowedBytes > 0;
    }

    /** How long until a held request is worth a look again. */
    private long waitNanos(long now) {
        return tightest == null
                ? GateContext.MAX_TIMER_NANOS
                : tightest.quota.path(now).waitNanos(now);
    }

    /** Timer task, and the end of a lookup: forwards the held request once the buckets allow, or its wait is over. */
    private void releaseHeldIfDue() {
        if (closed || !held.isHeld()) {
            return;
        }
        long now = context.clock().nanoTime();
        if (!allowance(now) && !held.isOver(now)) {
            held.lookAgainIn(now, waitNanos(now));
            return;
        }
        if (tightest != null) {
            context.services().throttles().delayed(tightest.throttle.scope(), now - held.heldAtNanos());
        }
        maxima.lower(held.view(), allowedRecords, allowedBytes);
        held.forward(exchanges.take(null, 0));
    }

    /** The broker's response to a forwarded request: each topic charged the records acquired and their bytes. */
    private void completed(GateExchange exchange, ResponseFrame response) {
        ShareFetchResponseData data;
        try {
            data = MessageFrames.read(
                    new ShareFetchResponseData(),
                    response.frame(),
                    response.bodyIndex(),
                    response.apiVersion(),
                    "bad_share_fetch_response");
        } catch (MalformedFrameException unreadable) {
            return; // the client cannot read it either
        }
        long now = context.clock().nanoTime();
        for (ShareFetchResponseData.ShareFetchableTopicResponse topicResponse : data.responses()) {
            Uuid id = topicResponse.topicId();
            if (!(context.topics().findById(id.getMostSignificantBits(), id.getLeastSignificantBits(), now)
                    instanceof TopicTable.Entry entry)) {
                continue;
            }
            GatedTopic topic = gated(entry);
            long records = 0;
            long bytes = 0;
            for (ShareFetchResponseData.PartitionData partition : topicResponse.partitions()) {
                for (ShareFetchResponseData.AcquiredRecords acquired : partition.acquiredRecords()) {
                    records += Math.max(0, acquired.lastOffset() - acquired.firstOffset() + 1);
                }
                if (partition.records() != null) {
                    bytes += partition.records().sizeInBytes();
                }
            }
            if (records > 0) {
                int count = (int) Math.min(Integer.MAX_VALUE, records);
                topic.quota.path(now).charge(now, count, bytes);
                topic.quota.meter().dispatched(count, bytes);
            }
        }
    }

    private GatedTopic gated(TopicTable.Entry entry) {
        entry.fetch = context.gated(entry, entry.fetch, Direction.DISPATCH, release);
        return entry.fetch;
    }
}
