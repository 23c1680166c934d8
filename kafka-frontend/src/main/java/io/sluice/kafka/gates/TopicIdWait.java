package io.sluice.kafka.gates;

import io.sluice.kafka.codec.PartitionRecords;
import io.sluice.kafka.codec.RequestHeader;
import io.sluice.relay.FrameView;
import org.apache.kafka.common.Uuid;

import java.util.ArrayList;
import java.util.List;

/**
 * A Produce request (v13) naming a topic id neither the connection nor
 * {@link io.sluice.kafka.routing.TopicIds} knows waits here, as a slice of its own, while
 * {@link io.sluice.kafka.routing.TopicIdLookup} asks the cluster, and the connection takes no
 * other request meanwhile ({@link RequestPauses#TOPIC_IDS}). Once the cluster answered, or the
 * request's {@code timeout_ms} passed, it is decided with what Sluice knows then. At most one
 * request waits, a {@link HeldRequest} with its own pause and timer. Confined to the connection's
 * event loop.
 */
final class TopicIdWait {

    /** Decides a request that waited, as any other but without waiting again. */
    @FunctionalInterface
    interface Decider {

        /** What becomes of the lent request {@code frame}, whose header {@code header} read; it stays its lender's. */
        GateVerdict decide(FrameView frame, RequestHeader header);
    }

    private static final long NANOS_PER_MILLI = 1_000_000;

    private final GateContext context;
    private final Decider decider;
    private final HeldRequest held;
    private final List<Uuid> unknownIds = new ArrayList<>();
    /** Numbers the lookups, so that only the current one's answer decides the waiting request. */
    private int lookups;

    TopicIdWait(GateContext context, Decider decider) {
        this.context = context;
        this.decider = decider;
        this.held = new HeldRequest(context, RequestPauses.TOPIC_IDS, this::waitedTooLong);
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
        long timeoutNanos = Math.max(0, request.timeoutMillis(frame, header)) * NANOS_PER_MILLI;
        held.hold(frame, now, now + timeoutNanos, timeoutNanos);
        return true;
    }

    /** No request waits. */
    boolean isIdle() {
        return !held.isHeld();
    }

    /** The connection closes: the waiting request is dropped, the timer stops. */
    void close() {
        held.drop();
    }

    /** Timer task: a request that waited its {@code timeout_ms} for its topic ids is decided without them. */
    private void waitedTooLong() {
        if (held.isDue()) {
            idsLearnt(lookups);
        }
    }

    /** The lookup {@code lookup} is over: the waiting request is decided with what Sluice knows now. */
    private void idsLearnt(int lookup) {
        if (held.isHeld() && lookup == lookups) {
            held.decide(decider);
        }
    }
}
