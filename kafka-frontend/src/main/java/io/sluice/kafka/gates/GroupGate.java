package io.sluice.kafka.gates;

import io.sluice.kafka.codec.GroupRequests;
import io.sluice.kafka.codec.RequestHeader;
import io.sluice.kafka.scopes.GroupScopes;
import io.sluice.kafka.scopes.KafkaNames;
import io.sluice.kafka.scopes.KafkaScopes;
import io.sluice.limits.LimitsDocument;
import io.sluice.limits.OnExceed;
import io.sluice.limits.ScopeRef;
import io.sluice.quota.Dimension;
import io.sluice.quota.QuotaDecision;
import io.sluice.quota.QuotaPath;
import io.sluice.relay.FrameView;
import io.sluice.relay.RequestThrottle;

import java.util.concurrent.TimeUnit;

/**
 * Consumer group rates for one connection (docs/KAFKA.md, "Consumer group storms"): every
 * JoinGroup and OffsetCommit passes here, read whole ({@link GroupRequests}), and is charged to the
 * {@code kafka.groups} scope its group falls under ({@link GroupScopes}), a group id that is empty,
 * over 255 characters or holds a control character as the one group {@code (invalid)}. Within the
 * group's rate it goes on at once; over it:
 * <ul>
 *   <li>{@code delay} (and {@code notify}, which these requests have no way to signal): the
 *       request is charged and held in Sluice until the bucket would have admitted it, then
 *       forwarded, so that the group's requests reach the broker at its rate however many members
 *       send them. The connection takes no request behind it meanwhile, as a broker, which reads
 *       one request of a connection at a time, takes none behind a JoinGroup it keeps waiting for
 *       the rebalance; the requests before it get their answers.</li>
 *   <li>{@code reject}, or a wait over {@link #MAX_HOLD_NANOS}: answered at once with Sluice's
 *       retriable refusal ({@link GroupRequests#REFUSAL}), uncharged; the client retries after its
 *       back-off.</li>
 * </ul>
 * Either way the connection's client is throttled for the group (no topic, the group among its
 * identity fields; scope {@code group}, reason {@code group_joins} or {@code group_commits}) in
 * {@code /api/v1/throttled} and the throttle metrics until the wait is over. At most one request is held, a {@link HeldRequest} with its own
 * pause and timer; the throttle, a {@link RequestThrottle}. Confined to the connection's event loop.
 */
public final class GroupGate {

    /**
     * The longest a request is held: well under the 30 s a Java client waits for an OffsetCommit
     * ({@code request.timeout.ms}) before it drops the connection; a longer wait is refused instead.
     */
    static final long MAX_HOLD_NANOS = TimeUnit.SECONDS.toNanos(20);

    private final GateContext context;
    private final HeldRequest held;
    private final RequestThrottle throttle;
    private final GateVerdict verdict = new GateVerdict();
    private final QuotaDecision decision = new QuotaDecision();
    /** The limits {@link #scopes} were read from. */
    private LimitsDocument scopesOf;

    private GroupScopes scopes;

    GroupGate(GateContext context) {
        this.context = context;
        this.held = new HeldRequest(context, RequestPauses.GROUP_HELD, this::heldDue);
        this.throttle = context.requestThrottle(held::isHeld);
    }

    /**
     * What becomes of the lent JoinGroup or OffsetCommit request {@code frame}, whose header
     * {@code header} just read; it stays its lender's. An unreadable request raises a
     * {@code MalformedFrameException}, before anything is charged.
     */
    public GateVerdict request(FrameView frame, RequestHeader header) {
        String group = KafkaNames.chargedGroupId(GroupRequests.groupId(frame, header));
        long now = context.arrived(frame, header);
        ScopeRef scope = scopeOf(group);
        if (scope == null) {
            return verdict.forward(null, null);
        }
        Dimension requests = GroupRequests.isJoin(header.apiKey()) ? Dimension.JOINS : Dimension.COMMITS;
        QuotaPath path = context.services().quotas().groupPath(scope, requests);
        if (path.isUnlimited() || path.tryAcquire(now, 1, 0, decision)) {
            return verdict.forward(null, null);
        }
        long wait = decision.waitNanos();
        if (decision.onExceed() == OnExceed.REJECT || wait > MAX_HOLD_NANOS) {
            throttled(group, OnExceed.REJECT, now, now + wait);
            return verdict.answer(GroupRequests.refusal(context.out().alloc(), frame, header));
        }
        path.charge(now, 1, 0);
        throttled(group, OnExceed.DELAY, now, now + wait);
        throttle.holding(1, frame.length());
        held.hold(frame, now, now + wait, wait);
        return verdict.hold();
    }

    /** No request is held. */
    public boolean isIdle() {
        return !held.isHeld();
    }

    /** The connection closes: the held request is dropped, the throttle ends, timers stop. */
    void close() {
        held.drop();
        throttle.end();
    }

    /** The scope {@code group} falls under in the limits in force, or {@code null}. */
    private ScopeRef scopeOf(String group) {
        LimitsDocument limits = context.services().quotas().limits();
        if (limits != scopesOf) {
            scopes = GroupScopes.of(limits);
            scopesOf = limits;
        }
        return scopes.scopeOf(group);
    }

    /** Timer task of the held request: forwarded once its wait is over. */
    private void heldDue() {
        if (!held.isDue()) {
            return;
        }
        long now = context.clock().nanoTime();
        context.services().throttles().delayed(KafkaScopes.GROUP.label(), now - held.heldAtNanos());
        throttle.holding(0, 0);
        held.forward(null);
        throttle.endIfOver();
    }

    /**
     * The connection's client is throttled for {@code group} as {@link #decision} found, Sluice
     * taking {@code action}, until {@code untilNanos} at least.
     */
    private void throttled(String group, OnExceed action, long now, long untilNanos) {
        throttle.throttled(
                context.client(KafkaScopes.GROUP_ID.of(group)), decision, action.jsonName(), now, untilNanos);
    }
}
