package io.sluice.kafka.gates;

import io.netty.buffer.ByteBuf;
import io.sluice.kafka.codec.PartitionRecords;
import io.sluice.kafka.codec.RequestHeader;
import io.sluice.relay.FrameView;
import io.sluice.relay.GateTimer;
import org.apache.kafka.common.Uuid;

import java.util.ArrayList;
import java.util.List;

/**
 * A Produce request (v13) naming a topic id neither the connection nor
 * {@link io.sluice.kafka.routing.TopicIds} knows waits here, as a slice of its own, while
 * {@link io.sluice.kafka.routing.TopicIdLookup} asks the cluster, and the connection takes no
 * other request meanwhile ({@link RequestPauses#TOPIC_IDS}). Once the cluster answered, or the
 * request's {@code timeout_ms} passed (its own timer), it is decided with what Sluice knows then.
 * At most one request waits. Confined to the connection's event loop.
 */
final class TopicIdWait {

    /** Decides a request that waited, as any other but without waiting again. */
    @FunctionalInterface
    interface Decider {

        /** Decides the lent request {@code frame}, whose header {@code header} read; it stays its lender's. */
        void decide(FrameView frame, RequestHeader header);
    }

    private static final long NANOS_PER_MILLI = 1_000_000;

    private final GateContext context;
    private final Decider decider;
    private final GateTimer timer;
    private final List<Uuid> unknownIds = new ArrayList<>();
    private final RequestHeader awaitingHeader = new RequestHeader();
    private final FrameView awaitingView = new FrameView();
    /** The request that waits, a slice of its own; null when none. */
    private ByteBuf awaiting;

    private long awaitingUntilNanos;
    /** Numbers the lookups, so that only the current one's answer decides the waiting request. */
    private int lookups;

    TopicIdWait(GateContext context, Decider decider) {
        this.context = context;
        this.decider = decider;
        this.timer = new GateTimer(context.loop(), GateContext.MAX_TIMER_NANOS, this::waitedTooLong);
    }

    /**
     * Whether the request {@code request} just read from the lent {@code frame} names a topic id
     * Sluice does not know; then it waits for the lookup, retaining what it needs. When too many
     * lookups wait Sluice-wide, it does not wait and is decided at once.
     */
    boolean waits(ProduceRequestParts request, FrameView frame, RequestHeader header, long now) {
        PartitionRecords parts = request.parts();
        if (!parts.topicsById()) {
            return false;
        }
        unknownIds.clear();
        for (int t = 0; t < parts.topicCount(); t++) {
            if (context.topics().find(parts, t, now) == TopicTable.Miss.UNKNOWN_ID) {
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
        long timeoutMillis = Math.max(0, request.timeoutMillis(frame, header));
        awaiting = frame.retainedSlice();
        awaitingUntilNanos = now + timeoutMillis * NANOS_PER_MILLI;
        context.pauses().pause(RequestPauses.TOPIC_IDS);
        timer.schedule(awaitingUntilNanos - now);
        return true;
    }

    /** No request waits. */
    boolean isIdle() {
        return awaiting == null;
    }

    /** The connection closes: the waiting request is dropped, the timer stops. */
    void close() {
        timer.cancel();
        if (awaiting != null) {
            awaiting.release();
            awaiting = null;
        }
    }

    /** Timer task: a request that waited its {@code timeout_ms} for its topic ids is decided without them. */
    private void waitedTooLong() {
        if (awaiting == null) {
            return;
        }
        long left = awaitingUntilNanos - context.clock().nanoTime();
        if (left > 0) {
            timer.schedule(left);
            return;
        }
        idsLearnt(lookups);
    }

    /** The lookup {@code lookup} is over: the waiting request is decided with what Sluice knows now. */
    private void idsLearnt(int lookup) {
        if (awaiting == null || lookup != lookups) {
            return;
        }
        timer.cancel();
        ByteBuf frame = awaiting;
        awaiting = null;
        try {
            awaitingHeader.read(awaitingView.lend(frame, frame.readerIndex(), frame.readableBytes()));
            decider.decide(awaitingView, awaitingHeader);
        } finally {
            frame.release();
        }
        context.out().flush();
        context.pauses().resume(RequestPauses.TOPIC_IDS);
    }
}
