package io.sluice.status;

import java.time.Instant;

/**
 * One producer or consumer being throttled, from {@link ThrottleLedger#begin} until
 * {@link ThrottleLedger#end}. Its held counts are written by the connection's event loop only and
 * read by the admin API from any thread.
 */
public final class Throttle {

    final ThrottleSubject subject;
    final String scope;
    final String reason;
    final String action;
    final Instant since;
    private volatile long heldMessages;
    private volatile long heldBytes;

    Throttle(ThrottleSubject subject, String scope, String reason, String action, Instant since) {
        this.subject = subject;
        this.scope = scope;
        this.reason = reason;
        this.action = action;
        this.since = since;
    }

    /** Sets what the proxy holds for this client now; single writer (its event loop). */
    public void holding(long messages, long bytes) {
        this.heldMessages = messages;
        this.heldBytes = bytes;
    }

    public String scope() {
        return scope;
    }

    public String reason() {
        return reason;
    }

    public String action() {
        return action;
    }

    ThrottledClient view() {
        return new ThrottledClient(
                subject.protocol(),
                subject.connection(),
                subject.identity(),
                subject.topic(),
                scope,
                reason,
                action,
                since,
                heldMessages,
                heldBytes);
    }
}
