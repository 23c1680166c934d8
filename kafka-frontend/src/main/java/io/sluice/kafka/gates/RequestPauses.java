package io.sluice.kafka.gates;

import io.sluice.quota.NanoClock;
import io.sluice.relay.WakeUp;
import io.sluice.relay.WakeUps;

/**
 * Why the gates stop taking a client's requests, for several independent reasons: the connection
 * holds more than its connection limits allow, a {@code notify} told the client to keep quiet for
 * a while (KIP-219: a broker mutes a throttled connection likewise), a Fetch request is held, a
 * Produce request waits for its topic ids or for its over-quota batches' turn, or a group's
 * JoinGroup or OffsetCommit waits for its rate.
 * Requests are taken again when no reason is left. Confined to the connection's event loop.
 */
final class RequestPauses {

    /** Over the connection limits. */
    static final int BUDGET = 1;
    /** Muted after a Fetch throttle time was sent. */
    static final int MUTED = 1 << 1;
    /** A Fetch request waits in Sluice; what follows it must wait too, to keep the order. */
    static final int FETCH_HELD = 1 << 2;
    /** A Produce request waits for Sluice to learn the topic ids it names; what follows waits too. */
    static final int TOPIC_IDS = 1 << 3;
    /** A Produce request waits in Sluice for its over-quota batches' turn ({@link ProduceHold}); what follows waits too. */
    static final int PRODUCE_HELD = 1 << 4;
    /** A Produce response told the client to pause ({@code notify}): until the buckets recovered ({@link ProduceMute}). */
    static final int NOTIFIED = 1 << 5;
    /** A JoinGroup or OffsetCommit waits in Sluice for its group's rate; what follows waits too, as at a broker. */
    static final int GROUP_HELD = 1 << 6;

    private final KafkaOutbound requests;
    private final NanoClock clock;
    private final WakeUp muteTimer;
    private int reasons;
    private long mutedUntilNanos;

    /** @param timers the connection's one timer */
    RequestPauses(KafkaOutbound requests, NanoClock clock, WakeUps timers, long maxWaitNanos) {
        this.requests = requests;
        this.clock = clock;
        this.muteTimer = timers.timer(maxWaitNanos, this::unmuteIfOver);
    }

    void pause(int reason) {
        int before = reasons;
        reasons |= reason;
        if (before == 0) {
            requests.pauseRequests();
        }
    }

    void resume(int reason) {
        if ((reasons & reason) == 0) {
            return;
        }
        reasons &= ~reason;
        if (reasons == 0) {
            requests.resumeRequests();
        }
    }

    boolean isPaused(int reason) {
        return (reasons & reason) != 0;
    }

    /** Takes no requests for {@code millis} from now, or until a mute already running ends if that is later. */
    void mute(long millis) {
        long until = clock.nanoTime() + millis * 1_000_000;
        if (!isPaused(MUTED) || until - mutedUntilNanos > 0) {
            mutedUntilNanos = until;
        }
        pause(MUTED);
        muteTimer.cancel();
        muteTimer.schedule(mutedUntilNanos - clock.nanoTime());
    }

    /** The connection closes: no timer is left behind. */
    void close() {
        muteTimer.cancel();
    }

    private void unmuteIfOver() {
        long left = mutedUntilNanos - clock.nanoTime();
        if (left > 0) {
            muteTimer.schedule(left);
        } else {
            resume(MUTED);
        }
    }
}
