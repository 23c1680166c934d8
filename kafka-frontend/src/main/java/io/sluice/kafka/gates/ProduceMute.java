package io.sluice.kafka.gates;

import io.sluice.relay.WakeUp;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * A connection that {@code notify} let a Produce request through over quota, and whose response
 * tells the client to pause (KIP-219): Sluice reads none of its requests from then until the
 * buckets of the topics it charged have recovered, as a broker mutes a throttled connection, and
 * tells the client {@link #told} of that wait.
 *
 * <p>The wait is computed at the bucket's rate when the response goes, but a cluster share can
 * grow a second later (the Sluice reports the demand of a bucket in debt), and a client told a
 * long time would stay silent after its bucket recovered, reporting no demand, and get a small
 * share again: so the client is told at most {@link #MAX_TOLD_MILLIS} (or all but
 * {@link #MAX_UNREAD_MILLIS} of a longer wait, so that requests it sends early never wait unread
 * past a client's request timeout), and Sluice, looking at the buckets again as its timer fires,
 * reads the connection again once they admit, never later than first computed.
 *
 * <p>Confined to the connection's event loop.
 */
final class ProduceMute {

    /** The longest throttle time told for a wait Sluice can keep unread. */
    static final int MAX_TOLD_MILLIS = 1_000;
    /** The longest a request sent after the throttle time told waits unread (the Java client's request timeout is 30 s). */
    static final int MAX_UNREAD_MILLIS = 20_000;

    private static final long NANOS_PER_MILLI = 1_000_000;

    private final GateContext context;
    private final WakeUp timer;
    /** The topics whose buckets the connection waits for. */
    private final List<GatedTopic> topics = new ArrayList<>();

    private final Consumer<GatedTopic> waitFor = topic -> {
        if (!topics.contains(topic)) {
            topics.add(topic);
        }
    };

    private long untilNanos;

    ProduceMute(GateContext context) {
        this.context = context;
        this.timer = context.holds().timers().timer(GateContext.MAX_TIMER_NANOS, this::lookAgain);
    }

    /** The throttle time to tell a client whose buckets need {@code waitMillis} to recover. */
    static int told(int waitMillis) {
        return Math.max(Math.min(waitMillis, MAX_TOLD_MILLIS), waitMillis - MAX_UNREAD_MILLIS);
    }

    /**
     * Reads no request until the buckets of {@code exchange}'s charged topics (the request just
     * decided) admit again, for at most {@code waitMillis}.
     */
    void mute(GateExchange exchange, int waitMillis) {
        long now = context.clock().nanoTime();
        long until = now + waitMillis * NANOS_PER_MILLI;
        if (!context.pauses().isPaused(RequestPauses.NOTIFIED) || until - untilNanos > 0) {
            untilNanos = until;
        }
        exchange.chargedTopics(waitFor);
        context.pauses().pause(RequestPauses.NOTIFIED);
        timer.cancel();
        timer.schedule(untilNanos - now);
    }

    /** The connection closes: no timer is left behind. */
    void close() {
        timer.cancel();
        topics.clear();
    }

    /** Timer task: reads the connection again once every bucket admits or the wait first computed is over. */
    private void lookAgain() {
        long now = context.clock().nanoTime();
        long left = untilNanos - now;
        long owed = 0;
        for (GatedTopic topic : topics) {
            owed = Math.max(owed, topic.quota.path(now).waitNanos(now));
        }
        left = Math.min(left, owed);
        if (left > 0) {
            timer.schedule(left);
            return;
        }
        topics.clear();
        context.pauses().resume(RequestPauses.NOTIFIED);
    }
}
