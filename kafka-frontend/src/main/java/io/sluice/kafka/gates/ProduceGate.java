package io.sluice.kafka.gates;

import io.sluice.kafka.codec.ProduceRequestCut;
import io.sluice.kafka.codec.ProduceVerdicts;
import io.sluice.kafka.codec.RequestHeader;
import io.sluice.quota.QuotaDecision;
import io.sluice.relay.FrameView;

/**
 * Produce quotas for one connection: every Produce request passes here on its way to the broker,
 * and the response to every one it forwards on its way back. The decision is per partition, so
 * that a topic over its quota does not hold up the others: Kafka answers a connection's requests
 * in order, and a request held whole would delay every topic behind it.
 *
 * <p>Partitions within quota go to the broker at once: the very request when all of it is within
 * quota (the bytes its decoder lent, with no copy or slice), else a cut of it
 * ({@link ProduceRequestCut}, slices of the original). Over quota, the action of the most specific
 * exceeded scope applies to that partition alone:
 * <ul>
 *   <li>{@code delay}: the partition is answered at once with REQUEST_TIMED_OUT, which the client
 *       takes as retriable for that batch alone, sending it again after {@code retry.backoff.ms};
 *       no error reaches the application and nothing makes it refresh metadata. On a connection
 *       that produces to one topic, a request whose batches are due within a second is charged
 *       and held until due instead ({@link ProduceHold}).</li>
 *   <li>{@code reject}: the partition is answered with POLICY_VIOLATION and
 *       {@link QuotaDecision#rejectMessage()}, which fails that batch's records to the application.</li>
 *   <li>{@code notify}: the partition goes through, charged, and the response carries a
 *       {@code throttle_time_ms} of what the buckets need to recover (KIP-219), at most a second,
 *       and the connection takes no request until they have ({@link ProduceMute}). The Java client then sends nothing to this
 *       broker meanwhile, whatever the topic, so {@code notify} cannot isolate topics. Before
 *       Produce v6 clients do not heed it: {@code delay} instead.</li>
 * </ul>
 * Sluice's answers are merged into the broker's response ({@link ProduceVerdicts}) so that it
 * names exactly the partitions of the request.
 *
 * <p>Idempotent producers number their batches; a batch answered by Sluice leaves a gap the broker
 * would see ({@link SequenceGaps}): until its sequence comes back, the partition's later batches
 * are bounced as well, so the client resends them in order, with no OUT_OF_ORDER_SEQUENCE_NUMBER,
 * no duplicate and no loss.
 *
 * <p>{@code acks=0} has no response to carry a signal: over-quota batches are held in Sluice, in
 * order per topic, and forwarded when the buckets allow, each as a request of its own. What is
 * held counts against the connection limits; past them the connection takes no request until
 * half is released.
 *
 * <p>A request (v13) naming a topic id Sluice has not learnt waits, and the connection takes no
 * other request meanwhile, while {@link io.sluice.kafka.routing.TopicIdLookup} asks the cluster;
 * then it is decided like any other. A partition whose id is still unknown once the cluster
 * answered, or after the request's {@code timeout_ms}, is answered UNKNOWN_TOPIC_ID (retriable:
 * the client refreshes its metadata and sends it again), or with {@code acks=0} dropped, as the
 * broker drops what it cannot take; it never reaches the broker unmetered.
 *
 * <p>Each job is a class of its own: {@link ProduceRequestParts} reads the request,
 * {@link TopicIdWait} holds one back for its topic ids, {@link ProduceDecisions} decides a request
 * that gets a response, {@link ProduceHold} holds one for its turn, {@link HeldProduce} decides one
 * with {@code acks=0}, {@link ProduceCompletion} makes the broker's response what the client gets
 * and {@link ProduceMute} keeps a notified connection unread until its buckets recover; each partition's fate is a {@link ProduceOutcome}.
 *
 * <p>Confined to the connection's event loop.
 */
public final class ProduceGate {

    private final ProduceRequestParts request;
    private final HeldProduce held;
    private final ProduceDecisions decisions;
    private final TopicIdWait idWait;
    private final ProduceHold hold;
    private final ProduceMute mute;
    private final GateVerdict verdict = new GateVerdict();

    ProduceGate(GateContext context) {
        this.held = new HeldProduce(context);
        this.request = new ProduceRequestParts(context, held);
        this.hold = new ProduceHold(context);
        this.mute = new ProduceMute(context);
        this.decisions = new ProduceDecisions(context, request, hold, mute, new ProduceCompletion(context));
        this.idWait = new TopicIdWait(context, this::decide);
    }

    /**
     * What becomes of the lent Produce request {@code frame}, whose header {@code header} just read;
     * it stays its lender's.
     */
    public GateVerdict request(FrameView frame, RequestHeader header) {
        long now = request.read(frame, header);
        if (idWait.waits(request, frame, header, now)) {
            return verdict.hold();
        }
        return decideRead(frame, header, now);
    }

    /** Nothing held, no held batch to forward and no request waiting for its topic ids or its turn. */
    public boolean isIdle() {
        return held.isIdle() && idWait.isIdle() && hold.isIdle();
    }

    /** The connection closes: what is held is released, throttles end, timers stop. */
    public void close() {
        idWait.close();
        hold.close();
        mute.close();
        held.close();
    }

    /** A request that waited for its topic ids, decided without waiting again. */
    private GateVerdict decide(FrameView frame, RequestHeader header) {
        return decideRead(frame, header, request.read(frame, header));
    }

    /** Decides the request {@link #request} just read from the lent {@code frame}, whose header {@code header} read. */
    private GateVerdict decideRead(FrameView frame, RequestHeader header, long now) {
        return request.acks() == 0 ? held.take(request, now, verdict) : decisions.decide(frame, header, now, verdict);
    }
}
