package io.sluice.pulsar.gates;

import io.sluice.relay.TopicQuota;
import io.sluice.relay.WakeUp;
import io.sluice.relay.WakeUps;
import io.sluice.status.CurrentThrottle;

import java.util.function.Consumer;

/**
 * One consumer of a client connection, as the dispatch gate sees it: its topic's dispatch quota
 * and the FLOW permits Sluice has not yet passed to the broker. Confined to the connection's
 * event loop.
 */
final class ConsumerState {

    final long consumerId;
    final TopicQuota quota;
    final CurrentThrottle throttle;
    /** Passes withheld permits on when the quota allows. */
    final WakeUp timer;
    /** Permits the client granted that the broker has not been given yet. */
    long withheldPermits;
    /** Permits given to the broker for which no message has come back yet. */
    long outstandingPermits;

    ConsumerState(
            long consumerId,
            TopicQuota quota,
            CurrentThrottle throttle,
            WakeUps timers,
            long maxWaitNanos,
            Consumer<ConsumerState> release) {
        this.consumerId = consumerId;
        this.quota = quota;
        this.throttle = throttle;
        this.timer = timers.timer(maxWaitNanos, () -> release.accept(this));
    }
}
