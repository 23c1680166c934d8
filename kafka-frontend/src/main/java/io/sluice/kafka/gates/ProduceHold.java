package io.sluice.kafka.gates;

import io.netty.buffer.ByteBuf;

/**
 * A Produce request whose over-quota batches are due within {@link #MAX_HOLD_NANOS}, held in Sluice
 * until then rather than bounced, on a connection that produces to one topic ({@code delay}).
 *
 * <p>Why: a bounced batch is resent after the client's back-off, which doubles per attempt up to
 * {@code retry.backoff.max.ms} (1 s for the Java client), and the bucket idles between the moment
 * it could take the batch and the retry; a batch larger than its bucket waits for a full one, and a
 * Sluice's share of a cluster limit makes small buckets, so the idle gaps cost a producer a large
 * part of its rate. Held, the batch goes at the moment the bucket takes it: it is charged when
 * decided (the bucket's time moves on as if it went when due, so the requests of the connection's
 * other topics and other connections see the debt) and forwarded when due.
 *
 * <p>Kafka answers a connection's requests in order, so nothing behind a held request is read
 * meanwhile ({@link RequestPauses#PRODUCE_HELD}): no later batch of its partitions overtakes it, and
 * an answer to another topic of the connection would wait for it. So a request is held only when it
 * names one topic and the connection produced to no other in the last {@link #SOLE_TOPIC_NANOS}; a
 * topic beside others is bounced as before, so that it costs them nothing. Another topic's request
 * that comes during a hold waits at most {@link #MAX_HOLD_NANOS}.
 *
 * <p>Buffer ownership: the held request (the client's bytes, retained, or a cut of them) is its
 * {@link HeldRequest}'s until it is forwarded (then the connection's) or the connection closes
 * (released there).
 *
 * <p>Confined to the connection's event loop.
 */
final class ProduceHold {

    /** The longest a request is held: the Java client's longest back-off, {@code retry.backoff.max.ms}. */
    static final long MAX_HOLD_NANOS = 1_000_000_000L;
    /** How long ago a connection must last have produced to another topic for a request of one topic to be held. */
    static final long SOLE_TOPIC_NANOS = 10_000_000_000L;

    private final GateContext context;
    private final HeldRequest held;

    /** The topic the connection produced to last, and when it last produced to two. */
    private GatedTopic lastTopic;

    private long mixedAtNanos;
    private boolean mixed;

    /** The held request's exchange, and the exceeded scope it is held for. */
    private GateExchange exchange;

    private String scope;

    ProduceHold(GateContext context) {
        this.context = context;
        this.held = new HeldRequest(context, RequestPauses.PRODUCE_HELD, this::forwardIfDue);
    }

    /** The request just read produces to {@code topic} (tracked), at {@code now}. */
    void produced(GatedTopic topic, long now) {
        if (lastTopic != null && lastTopic != topic) {
            mixed = true;
            mixedAtNanos = now;
        }
        lastTopic = topic;
    }

    /**
     * Whether a request naming {@code topics} topics, whose batch is due in {@code dueNanos}, may be
     * held rather than bounced.
     */
    boolean mayHold(int topics, long dueNanos, long now) {
        return !held.isHeld()
                && topics == 1
                && dueNanos <= MAX_HOLD_NANOS
                && (!mixed || now - mixedAtNanos >= SOLE_TOPIC_NANOS);
    }

    /**
     * Holds {@code request} (taking ownership), whose response goes through {@code exchange}, until
     * {@code dueNanos} from {@code now}, and stops the connection's requests behind it;
     * {@code scope} names the exceeded scope for the delay histogram.
     */
    void hold(ByteBuf request, GateExchange exchange, String scope, long now, long dueNanos) {
        this.exchange = exchange;
        this.scope = scope;
        held.hold(request, now, now + dueNanos, dueNanos);
    }

    /** No request is held. */
    boolean isIdle() {
        return !held.isHeld();
    }

    /**
     * The connection closes: the held request is dropped and what it was charged given back (the
     * client sends it again), its exchange abandoned, the timer stopped.
     */
    void close() {
        if (held.isHeld()) {
            exchange.giveBackAll(context.clock().nanoTime());
            exchange.abandon();
            exchange = null;
        }
        held.drop();
    }

    /** Timer task: the held request goes once due, and the connection's requests go on. */
    private void forwardIfDue() {
        if (!held.isDue()) {
            return;
        }
        context.services().throttles().delayed(scope, context.clock().nanoTime() - held.heldAtNanos());
        GateExchange forwarded = exchange;
        exchange = null;
        held.forward(forwarded);
    }
}
