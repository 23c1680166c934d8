package io.sluice.kafka.gates;

import io.netty.buffer.ByteBuf;
import io.sluice.kafka.codec.MutationRequest;
import io.sluice.kafka.codec.RequestHeader;
import io.sluice.limits.LimitPart;
import io.sluice.limits.LimitsDocument;
import io.sluice.limits.OnExceed;
import io.sluice.quota.QuotaDecision;
import io.sluice.quota.QuotaPath;
import io.sluice.relay.FrameView;
import io.sluice.relay.RequestThrottle;
import io.sluice.relay.Throttling;

/**
 * Rates of topic mutations for one connection (docs/KAFKA.md, "Topic mutations"), as Kafka's
 * controller mutation quota (KIP-599) limits them: every CreateTopics, CreatePartitions and
 * DeleteTopics is read whole ({@link MutationRequest}) and each of its topics charged, in
 * partitions, to the connection's client id and principal, whatever the limit's {@code onExceed}.
 * <ul>
 *   <li>Versions that know THROTTLING_QUOTA_EXCEEDED (CreateTopics v6, CreatePartitions v3,
 *       DeleteTopics v5 on): Kafka's strict rule. A topic is admitted while every bucket has
 *       something left, and charged whole even if that puts one in debt; a topic over it is refused with
 *       THROTTLING_QUOTA_EXCEEDED and Sluice's message. A request whose topics are all admitted goes
 *       on as it came; one with some refused goes on cut to the admitted, Sluice's answers for the
 *       others merged into the broker's response ({@link MutationExchange}); one with all refused is
 *       answered by Sluice alone. Either way, a refusal's response carries {@code throttle_time_ms}
 *       until the buckets are out of debt, and the connection takes no request meanwhile.</li>
 *   <li>Older versions: Kafka's permissive rule. Every topic is charged and forwarded; a request
 *       that found a bucket in debt has its response's throttle time raised until the buckets are
 *       out of debt, and the connection takes no request meanwhile (KIP-219).</li>
 * </ul>
 * A topic the broker answers with an error (it exists already, its name is taken, ...) is given its
 * charge back, as Kafka charges only what the controller does. Throttled clients show in
 * {@code /api/v1/throttled} and the throttle metrics (no topic, reason {@code topic_mutations}).
 * Nothing is read while no limit in force has a rate of mutations. Confined to the connection's
 * event loop.
 */
public final class MutationGate {

    /** How Sluice's refusal of a topic starts its {@code error_message}, so that it says it is Sluice's. */
    static final String REFUSED = "Sluice refused the topic mutation, ";

    private final GateContext context;
    private final RequestThrottle throttle;
    private final GateVerdict verdict = new GateVerdict();
    private final QuotaDecision decision = new QuotaDecision();
    /** The limits {@link #limited} was read from. */
    private LimitsDocument readOf;

    private boolean limited;

    MutationGate(GateContext context) {
        this.context = context;
        this.throttle = context.requestThrottle(() -> false);
    }

    /** Whether requests to API {@code apiKey} pass here. */
    public static boolean handles(short apiKey) {
        return MutationRequest.isMutation(apiKey);
    }

    /**
     * What becomes of the lent topic mutation request {@code frame}, whose header {@code header} just
     * read; it stays its lender's. An unreadable request raises a {@code MalformedFrameException},
     * before anything is charged.
     */
    public GateVerdict request(FrameView frame, RequestHeader header) {
        long now = context.arrived(frame, header);
        if (!limited()) {
            return verdict.forward(null, null);
        }
        MutationRequest request = MutationRequest.read(frame, header);
        QuotaPath path = context.services().quotas().mutationPath(context.identityScopes(0));
        if (path.isUnlimited()) {
            return verdict.forward(null, null);
        }
        boolean strict = request.isStrict();
        int topics = request.topics();
        int[] charged = new int[topics];
        boolean[] refused = new boolean[topics];
        int refusals = 0;
        boolean overRate = false;
        for (int i = 0; i < topics; i++) {
            int partitions = request.partitions(i);
            if (partitions == 0 || path.tryAcquireWhole(now, partitions, decision)) {
                charged[i] = partitions;
                continue;
            }
            overRate = true;
            if (strict) {
                refused[i] = true;
                refusals++;
            } else {
                path.charge(now, partitions, 0);
                charged[i] = partitions;
            }
        }
        int millis = 0;
        if (overRate) {
            long wait = path.waitNanos(now);
            millis = GateContext.ceilMillis(wait);
            OnExceed action = strict ? OnExceed.REJECT : Throttling.PAUSE_CLIENT.action();
            throttle.throttled(context.client(), decision, action.jsonName(), now, now + wait);
            context.pauses().mute(millis);
        }
        String message = refusals == 0 ? null : REFUSED + decision.rejectMessage();
        if (refusals > 0 && refusals == topics) {
            return verdict.answer(request.answer(context.out().alloc(), header.correlationId(), message, millis));
        }
        MutationExchange exchange =
                new MutationExchange(context, request, path, charged, refusals == 0 ? null : refused, message, millis);
        ByteBuf cut = refusals == 0 ? null : request.cut(context.out().alloc(), frame, header, refused);
        return verdict.forward(cut, exchange);
    }

    /** The connection closes: the throttle ends, its timer stops. */
    void close() {
        throttle.end();
    }

    /** Whether some limit in force has a rate of topic mutations. */
    private boolean limited() {
        LimitsDocument limits = context.services().quotas().limits();
        if (limits != readOf) {
            readOf = limits;
            limited = limits.sets(LimitPart.MUTATIONS);
        }
        return limited;
    }
}
