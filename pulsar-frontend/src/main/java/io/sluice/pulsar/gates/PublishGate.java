package io.sluice.pulsar.gates;

import io.netty.buffer.ByteBuf;
import io.sluice.limits.Direction;
import io.sluice.pulsar.codec.FrameCommand;
import io.sluice.pulsar.codec.FrameReader;
import io.sluice.pulsar.codec.FrameWriter;
import io.sluice.pulsar.codec.SendFields;
import io.sluice.pulsar.codec.proto.CommandThrottleProducer.ThrottlingReason;
import io.sluice.pulsar.gates.OrderedRejections.PendingRejection;
import io.sluice.pulsar.scopes.PulsarScopes;
import io.sluice.quota.NanoClock;
import io.sluice.quota.QuotaDecision;
import io.sluice.quota.QuotaPath;
import io.sluice.relay.ConnectionBudget;
import io.sluice.relay.ConnectionHolds;
import io.sluice.relay.FrameView;
import io.sluice.relay.HeldFrames.Held;
import io.sluice.relay.Hold;
import io.sluice.relay.Outbound;
import io.sluice.relay.ProxyServices;
import io.sluice.relay.Throttling;
import io.sluice.relay.TopicQuota;
import io.sluice.relay.WakeUps;
import io.sluice.status.CurrentThrottle;
import io.sluice.status.TopicMeter;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * Publish quotas for one connection: every SEND passes here on its way to the broker and every
 * SEND_RECEIPT or SEND_ERROR on its way back. This class makes the send decision; the producers'
 * held sends ({@link Hold}), owed rejections ({@link OrderedRejections}), notice states
 * ({@link ProducerNotice}, {@link ThrottleNotices}) and the connection's budget
 * ({@link ConnectionBudget}) are kept by the classes named.
 *
 * <p>A send within quota is forwarded at once, as its original bytes. Over quota, the action of
 * the most specific exceeded scope applies to that producer alone, as {@link PulsarActions} says
 * what it means for this send and client: {@code delay} holds the send in
 * the producer's FIFO and its timer releases it when the buckets allow; {@code reject} answers
 * with a SendError, queued behind the receipts of the producer's earlier sends because the stock
 * client accepts an error only for its oldest pending message. Once a producer holds anything,
 * its later sends queue behind it, so order is kept.
 *
 * <p>{@code notify}, for a client that takes throttle notices: the send that finds the buckets
 * empty is forwarded and charged, and the client is told to pause that producer for as long as
 * the buckets need to recover. Until its receipt arrives, the producer's sends are forwarded
 * unchecked and charged: they were in flight before the client saw the notice, and they lengthen
 * its next pause. A receipt that does not come within the receipt window turns {@code notify}
 * into {@code delay} for that producer for good, and so does a send that arrives after the
 * receipt but before the pause is over: TCP keeps order, so the client wrote it after it promised
 * to pause. Trusting such a producer again would give it another receipt window of unchecked
 * sends each time. For any other client {@code notify} is {@code delay}.
 *
 * <p>Connection limits: while the sends without a broker answer exceed {@code maxPendingSends}
 * or the held bytes exceed {@code maxHeldBytes}, the connection is not read; reading resumes
 * when both are under half. A client that takes notices is told, for each of its producers.
 *
 * <p>Confined to the connection's event loop.
 */
public final class PublishGate implements ThrottleNotices.Outcome, ResourceLifecycle.Gate<ProducerState> {

    /** Longest a held producer waits before its quota is looked at again (picks up limit changes). */
    static final long MAX_TIMER_NANOS = TimeUnit.MILLISECONDS.toNanos(100);
    /**
     * Shortest wait of a held producer: it wakes at most once a millisecond and forwards what fell
     * due meanwhile in one run and one flush, instead of waking once per send (at 50,000 msg/s
     * that is 50 sends a wake-up; docs/BENCHMARKS.md has the figures). The pacing stays exact:
     * the token bucket admits what the elapsed millisecond earned, and its burst is at least 10 ms.
     */
    static final long MIN_TIMER_NANOS = TimeUnit.MILLISECONDS.toNanos(1);

    private static final long NANOS_PER_MILLI = 1_000_000;

    private final Outbound out;
    private final NanoClock clock;
    private final ProxyServices services;
    private final long receiptWindowNanos;
    private final ResourceLifecycle<ProducerState> lifecycle;
    private final ResourceRegistry<ProducerState> producers;
    private final ThrottleNotices notices;
    private final ConnectionBudget budget;
    private final ConnectionHolds holds;
    private final SendFields fields = new SendFields();
    private final QuotaDecision decision = new QuotaDecision();

    /**
     * @param out           where frames go
     * @param clock         the connection's clock, on the engine's time scale
     * @param timers        the connection's one timer, which its producers' holds and the notices' receipt windows share
     * @param clientAddress the client's address, as {@code /api/v1/throttled} shows it
     * @param receiptWindow how long a client has to confirm a throttle notice
     * @param reads         pauses and resumes reading the client for the connection limits
     */
    public PublishGate(
            Outbound out,
            NanoClock clock,
            WakeUps timers,
            ProxyServices services,
            String clientAddress,
            Duration receiptWindow,
            ConnectionBudget.Pause reads) {
        this.out = out;
        this.clock = clock;
        this.services = services;
        this.lifecycle =
                new ResourceLifecycle<>(services, clientAddress, Direction.PUBLISH, PulsarScopes.PRODUCER_ID, this);
        this.producers = lifecycle.registry();
        this.receiptWindowNanos = receiptWindow.toNanos();
        this.notices = new ThrottleNotices(out, timers, clock, receiptWindowNanos, this);
        this.budget = new ConnectionBudget(() -> services.quotas().limits().connection(), new ConnectionBudget.Pause() {
            @Override
            public void pause(ConnectionBudget.Breach breach) {
                reads.pause(breach);
                notices.connectionLimitExceeded(
                        breach == ConnectionBudget.Breach.PENDING_SENDS
                                ? ThrottlingReason.ConnectionPendingMessagesBreach
                                : ThrottlingReason.MessageBufferSizeBreach,
                        producers.activeResources());
            }

            @Override
            public void resume() {
                reads.resume();
            }
        });
        this.holds = new ConnectionHolds(timers, budget, services.throttles(), out::flush);
    }

    /** The connection's throttle notices: the CONNECT's feature flag and the client's receipts go there. */
    public ThrottleNotices notices() {
        return notices;
    }

    /**
     * A SEND from the client, lent, and its command as read: forwarded as it is, or kept as a slice
     * of its own while held.
     */
    public void send(FrameView frame, FrameCommand command) {
        FrameReader.readSend(command, fields);
        ProducerState producer = producers.get(fields.producerId);
        if (producer == null) {
            untracked(fields.producerId, fields.lastSequenceId());
            return;
        }
        // Consumers see the batch's own count, bounded by its bytes; num_messages is only the client's word.
        int messages = FrameReader.messagesInSend(frame);
        long bytes = FrameReader.payloadSize(frame);
        long now = clock.nanoTime();
        budget.sendPending();
        budget.check();
        if (!producer.hold.isEmpty()) {
            hold(producer, frame, messages, bytes, now);
            return;
        }
        QuotaPath path = producer.quota.path(now);
        if (producer.notice.isAwaitingReceipt()) {
            // Written before the client saw the notice.
            path.charge(now, messages, bytes);
            forward(producer, frame, messages, bytes, now);
            return;
        }
        if (producer.notice.isPausing(now)) {
            // Written after the client confirmed the pause: it does not keep its word, so hold its sends.
            fallBackToDelay(producer, now);
            hold(producer, frame, messages, bytes, now);
            return;
        }
        if (path.isUnlimited() || path.tryAcquire(now, messages, bytes, decision)) {
            endThrottleIfOver(producer, now);
            forward(producer, frame, messages, bytes, now);
            return;
        }
        Throttling throttling = PulsarActions.send(
                decision.onExceed(), notices.clientSupportsNotices() && !producer.notice.hasMissed());
        if (throttling == Throttling.REFUSE) {
            reject(producer, fields.lastSequenceId(), now);
            return;
        }
        if (throttling == Throttling.PAUSE_CLIENT) {
            path.charge(now, messages, bytes);
            notifyPause(producer, path, now);
            forward(producer, frame, messages, bytes, now);
            return;
        }
        beginThrottle(producer, Throttling.HOLD);
        hold(producer, frame, messages, bytes, now);
        producer.hold.lookAgainIn(decision.waitNanos());
    }

    /**
     * A SEND for a producer Sluice does not track is never forwarded, so it can reach no topic
     * unmetered: one the client wrote before it saw its producer closed is dropped, as the broker
     * drops it; any other (the producer is not created yet, or never was) is refused with Sluice's
     * own SendError. The broker would close the whole connection for it.
     */
    private void untracked(long producerId, long sequenceId) {
        if (producers.isRecentlyClosed(producerId)) {
            return;
        }
        services.stats().protocolError("send_untracked_producer");
        String state = producers.isPending(producerId) ? "is not created yet" : "does not exist";
        out.toClient(FrameWriter.sendError(
                out.alloc(),
                producerId,
                sequenceId,
                PulsarActions.REFUSAL,
                "Sluice refused the send: producer " + producerId + " " + state + " on this connection"));
    }

    /** A SEND_RECEIPT or SEND_ERROR from the broker, lent, and its command as read; forwarded to the client. */
    public void answer(FrameView frame, FrameCommand command) {
        // The broker writes producer_id first; it is the one field an answer needs.
        long producerId = FrameReader.readFirstId(command, command.type());
        out.toClient(frame);
        ProducerState producer = producers.get(producerId);
        if (producer == null || producer.unanswered() <= 0) {
            return;
        }
        producer.answered++;
        budget.sendsDone(1);
        long sentAt = producer.sendTimes.poll();
        if (sentAt != Long.MIN_VALUE) {
            long now = clock.nanoTime();
            services.upstreamLatency().record(now - sentAt, now);
        }
        PendingRejection due;
        while ((due = producer.rejections.pollDue(producer.answered)) != null) {
            sendError(producer, due.sequenceId(), due.message());
        }
        budget.check();
    }

    /** Nothing held and no send waiting for the broker's (or Sluice's) answer. */
    public boolean isIdle() {
        return budget.pendingSends() == 0;
    }

    /** The connection's producers: the connection reports each one's requests, answers and close here. */
    public ResourceLifecycle<ProducerState> producers() {
        return lifecycle;
    }

    /** The connection closes: every producer is gone, and what they hold is released. */
    public void close() {
        lifecycle.closeAll();
    }

    /** A producer closed: drop what it holds; the client never got receipts for it. */
    @Override
    public void gone(ProducerState producer) {
        int dropped = producer.hold.close();
        if (producer.notice.isAwaitingReceipt()) {
            notices.forget(producer.notice.requestId());
        }
        budget.sendsDone(dropped + producer.unanswered() + producer.rejections.clear());
        endThrottle(producer);
        budget.check();
    }

    @Override
    public void noticeAnswered(ProducerState producer, long requestId) {
        if (!awaits(producer, requestId)) {
            return;
        }
        producer.notice.relying();
        producer.hold.lookAgainIn(producer.throttleEndsAtNanos - clock.nanoTime());
    }

    @Override
    public void noticeMissed(ProducerState producer, long requestId) {
        if (awaits(producer, requestId)) {
            fallBackToDelay(producer, clock.nanoTime());
        }
    }

    @Override
    public ProducerState active(long producerId, TopicQuota quota, CurrentThrottle throttle) {
        return new ProducerState(
                producerId, quota, throttle, holds, MIN_TIMER_NANOS, MAX_TIMER_NANOS, decision, Release::new);
    }

    private void forward(ProducerState producer, FrameView frame, int messages, long bytes, long now) {
        sent(producer, messages, bytes, now);
        out.toUpstream(frame);
    }

    /** Forwards a send that was held; takes ownership of {@code frame}. */
    private void forward(ProducerState producer, ByteBuf frame, int messages, long bytes, long now) {
        sent(producer, messages, bytes, now);
        out.toUpstream(frame);
    }

    private void sent(ProducerState producer, int messages, long bytes, long now) {
        producer.forwarded++;
        producer.sendTimes.add(now);
        producer.quota.meter().published(messages, bytes);
    }

    /**
     * Tells the client to pause {@code producer} until every bucket on {@code path} admits again;
     * the send that found them empty is already charged.
     */
    private void notifyPause(ProducerState producer, QuotaPath path, long now) {
        long pauseMillis = (path.waitNanos(now) + NANOS_PER_MILLI - 1) / NANOS_PER_MILLI;
        beginThrottle(producer, Throttling.PAUSE_CLIENT);
        long requestId = notices.quotaExceeded(
                producer, ThrottleNoticeReasons.of(decision.scope().kind()), pauseMillis);
        long pauseEndsAt = now + pauseMillis * NANOS_PER_MILLI;
        producer.notice.notified(requestId, pauseEndsAt);
        // One receipt window past the pause, so that a producer notified again right after it stays one throttle.
        producer.throttleEndsAtNanos = pauseEndsAt + receiptWindowNanos;
    }

    /** The client cannot be relied on for this producer: the throttle, and any later one, is a {@code delay}. */
    private void fallBackToDelay(ProducerState producer, long now) {
        producer.notice.missed();
        producer.throttle.relabel(Throttling.HOLD.action().jsonName(), producer.quota.meter());
        // The delay lasts at least until what the client sent meanwhile is paid for.
        producer.throttleEndsAtNanos = now + producer.quota.path(now).waitNanos(now);
        producer.hold.lookAgainIn(producer.throttleEndsAtNanos - now);
    }

    private boolean awaits(ProducerState producer, long requestId) {
        return producers.get(producer.producerId) == producer && producer.notice.awaits(requestId);
    }

    /**
     * Holds a lent send, as a buffer of its own (copied out of a read buffer much larger than itself,
     * so that what it pins is what {@code maxHeldBytes} counts), behind the producer's other held sends.
     */
    private void hold(ProducerState producer, FrameView frame, int messages, long bytes, long now) {
        producer.hold.add(frame.heldCopy(out.alloc()), messages, bytes, fields.lastSequenceId(), now);
    }

    /**
     * The gate's side of a producer's hold: a held send goes when the producer's buckets admit it,
     * in order; one whose limit turned to reject while it was held is rejected in its place.
     */
    private final class Release implements Hold.Holder {

        private final ProducerState producer;

        Release(ProducerState producer) {
            this.producer = producer;
        }

        @Override
        public Hold.Admission admit(Held head, long nowNanos) {
            QuotaPath path = producer.quota.path(nowNanos);
            if (path.isUnlimited() || path.tryAcquire(nowNanos, head.messages(), head.bytes(), decision)) {
                return Hold.Admission.NOW;
            }
            return PulsarActions.heldSend(decision.onExceed()) == Throttling.REFUSE
                    ? Hold.Admission.REFUSED
                    : Hold.Admission.LATER;
        }

        @Override
        public void forward(Held head, long nowNanos) {
            PublishGate.this.forward(producer, head.frame(), head.messages(), head.bytes(), nowNanos);
        }

        @Override
        public void refused(Held head, long nowNanos) {
            head.frame().release();
            reject(producer, head.sequenceId(), nowNanos);
        }

        /** Nothing held: the throttle ends once it is over, unless a receipt or a rejection is still owed. */
        @Override
        public void nothingHeld(long nowNanos) {
            if (producer.notice.isAwaitingReceipt()) {
                // The receipt, or its absence, decides what comes next and schedules it.
                producer.throttle.holding(0, 0);
            } else if (producer.rejections.isEmpty() && nowNanos - producer.throttleEndsAtNanos >= 0) {
                endThrottle(producer);
            } else if (producer.throttle.isActive()) {
                producer.throttle.holding(0, 0);
                producer.hold.lookAgainIn(producer.throttleEndsAtNanos - nowNanos);
            }
        }

        @Override
        public TopicMeter meter() {
            return producer.quota.meter();
        }

        @Override
        public CurrentThrottle throttle() {
            return producer.throttle;
        }
    }

    private void reject(ProducerState producer, long sequenceId, long now) {
        beginThrottle(producer, Throttling.REFUSE);
        producer.throttleEndsAtNanos = now + decision.waitNanos();
        String message = decision.rejectMessage();
        producer.hold.lookAgainIn(decision.waitNanos());
        if (producer.unanswered() == 0 && producer.rejections.isEmpty()) {
            sendError(producer, sequenceId, message);
        } else {
            producer.rejections.add(sequenceId, message, producer.forwarded);
        }
    }

    private void sendError(ProducerState producer, long sequenceId, String message) {
        budget.sendsDone(1);
        out.toClient(
                FrameWriter.sendError(out.alloc(), producer.producerId, sequenceId, PulsarActions.REFUSAL, message));
    }

    /**
     * Records that the producer is throttled, at the scope {@link #decision} names, with the action
     * the gate takes ({@code taken}), which for {@code notify} depends on the client.
     */
    private void beginThrottle(ProducerState producer, Throttling taken) {
        producer.throttle.begin(
                decision.scope().kind().label(),
                decision.reason(),
                taken.action().jsonName(),
                producer.quota.meter());
    }

    /**
     * Ends a throttle that is over: nothing held or rejected, no receipt awaited, and past the
     * retry time of a rejection or the pause (plus a receipt window) of a notice.
     */
    private void endThrottleIfOver(ProducerState producer, long now) {
        if (producer.throttle.isActive()
                && producer.hold.isEmpty()
                && producer.rejections.isEmpty()
                && !producer.notice.isAwaitingReceipt()
                && now - producer.throttleEndsAtNanos >= 0) {
            endThrottle(producer);
        }
    }

    private void endThrottle(ProducerState producer) {
        producer.throttle.end();
        producer.notice.reset();
    }
}
