package io.sluice.relay;

import io.sluice.limits.OnExceed;

/**
 * What a gate does with traffic its buckets refused (a send, a batch, a partition of a request,
 * consumer permits), whatever the protocol. A limit says {@code delay}, {@code reject} or
 * {@code notify} ({@link OnExceed}); each front end's policy says which of these that means for
 * its protocol, its request and its client, and the gate does it. Throttle records and metrics
 * name the action the gate took, {@link #action()}, not the one the limit asked for.
 */
public enum Throttling {
    /** Keep it, or leave it upstream, and let it through when the buckets allow: a {@code delay}. */
    HOLD(OnExceed.DELAY),
    /** Answer it at once with an error the client retries after its back-off: a {@code delay} the client carries out. */
    RETRY(OnExceed.DELAY),
    /** Answer it at once with an error naming the exceeded limit, and forward none of it: a {@code reject}. */
    REFUSE(OnExceed.REJECT),
    /** Let it through, charged, and tell the client to pause for as long as the buckets need: a {@code notify}. */
    PAUSE_CLIENT(OnExceed.NOTIFY);

    private final OnExceed action;

    Throttling(OnExceed action) {
        this.action = action;
    }

    /** The action this is, as {@code /api/v1/throttled} and {@code sluice_throttle_events_total} name it. */
    public OnExceed action() {
        return action;
    }
}
