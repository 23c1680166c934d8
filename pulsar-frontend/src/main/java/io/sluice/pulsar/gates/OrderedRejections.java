package io.sluice.pulsar.gates;

import java.util.ArrayDeque;

/**
 * The rejections one producer owes its client, each due once the broker has answered the sends
 * forwarded before it: the stock client matches an error only against its oldest pending send,
 * so a rejection must not overtake a receipt. Confined to the connection's event loop.
 */
final class OrderedRejections {

    /** A rejection due after the broker answered {@code afterForwarded} of the producer's sends. */
    record PendingRejection(long sequenceId, String message, long afterForwarded) {}

    private final ArrayDeque<PendingRejection> pending = new ArrayDeque<>();

    void add(long sequenceId, String message, long afterForwarded) {
        pending.add(new PendingRejection(sequenceId, message, afterForwarded));
    }

    /** The oldest rejection if it is due after {@code answered} broker answers, removed; else {@code null}. */
    PendingRejection pollDue(long answered) {
        PendingRejection due = pending.peek();
        if (due == null || answered < due.afterForwarded()) {
            return null;
        }
        return pending.poll();
    }

    /** Forgets every pending rejection; returns how many there were. */
    int clear() {
        int dropped = pending.size();
        pending.clear();
        return dropped;
    }

    boolean isEmpty() {
        return pending.isEmpty();
    }
}
