package io.sluice.pulsar.proxy;

import io.sluice.scopes.PulsarScopes;
import io.sluice.relay.ProxyServices;
import io.netty.buffer.ByteBuf;
import io.sluice.pulsar.codec.FrameReader;
import io.sluice.pulsar.codec.FrameWriter;
import io.sluice.pulsar.codec.SendFields;
import io.sluice.pulsar.codec.proto.BaseCommand;
import io.sluice.pulsar.codec.proto.CommandThrottleProducer.ThrottlingReason;
import io.sluice.pulsar.codec.proto.ServerError;
import io.sluice.pulsar.proxy.ProducerState.HeldSend;
import io.sluice.pulsar.proxy.ProducerState.NoticeState;
import io.sluice.pulsar.proxy.ProducerState.PendingRejection;
import io.sluice.limits.ConnectionLimits;
import io.sluice.limits.OnExceed;
import io.sluice.quota.QuotaDecision;
import io.sluice.quota.QuotaEngine;
import io.sluice.quota.QuotaPath;
import io.sluice.status.Throttle;

import java.util.concurrent.TimeUnit;

/**
 * Publish quotas for one connection: every SEND passes here on its way to the broker and every
 * SEND_RECEIPT or SEND_ERROR on its way back.
 *
 * <p>A send within quota is forwarded at once, as its original bytes. Over quota, the action of
 * the most specific exceeded scope applies to that producer alone: {@code delay} holds the send in
 * the producer's FIFO and a timer on the event loop releases it when the buckets allow;
 * {@code reject} answers with a SendError, queued behind the receipts of the producer's earlier
 * sends because the stock client accepts an error only for its oldest pending message. Once a
 * producer holds anything, its later sends queue behind it, so order is kept.
 *
 * <p>{@code notify}, for a client that takes throttle notices ({@link ThrottleNotices}): the send
 * that finds the buckets empty is forwarded and charged, and the client is told to pause that
 * producer for as long as the buckets need to recover. Until its receipt arrives, the producer's
 * sends are forwarded unchecked and charged: they were in flight before the client saw the notice,
 * and they lengthen its next pause. A receipt that does not come within the receipt window turns
 * {@code notify} into {@code delay} for that producer for good, and so does a send that arrives
 * after the receipt but before the pause is over: TCP keeps order, so the client wrote it after it
 * promised to pause. Trusting such a producer again would give it another receipt window of
 * unchecked sends each time. For any other client {@code notify} is {@code delay}.
 *
 * <p>Connection limits: while the sends without a broker answer exceed {@code maxPendingSends}
 * or the held bytes exceed {@code maxHeldBytes}, the connection is not read; reading resumes
 * when both are under half. A client that takes notices is told, for each of its producers.
 *
 * <p>Confined to the connection's event loop.
 */
final class PublishGate {

    private static final int SEND_TYPE = BaseCommand.Type.SEND_VALUE;

    /** Longest a held producer waits before its quota is looked at again (picks up limit changes). */
    private static final long MAX_TIMER_NANOS = TimeUnit.MILLISECONDS.toNanos(100);
    private static final long NANOS_PER_MILLI = 1_000_000;

    private final ProxyConnection connection;
    private final ProxyServices services;
    private final QuotaEngine quotas;
    private final long receiptWindowNanos;
    private final SendFields fields = new SendFields();
    private final QuotaDecision decision = new QuotaDecision();

    /** Sends of this connection without a broker answer, held ones included. */
    private long pendingSends;
    private long heldBytes;
    private long heldMessages;

    PublishGate(ProxyConnection connection, ProxyServices services) {
        this.connection = connection;
        this.services = services;
        this.quotas = services.quotas();
        this.receiptWindowNanos = connection.settings.throttleReceiptWindow().toNanos();
    }

    /** A SEND from the client; takes ownership of {@code frame}. */
    void send(ByteBuf frame) {
        readOrRelease(frame, SEND_TYPE);
        ProducerState producer = connection.producers.get(fields.producerId);
        if (producer == null) {
            // Not a producer the broker accepted on this connection: the broker will answer it.
            connection.toBroker(frame);
            return;
        }
        int messages = Math.max(1, fields.numMessages);
        long bytes = FrameReader.payloadSize(frame);
        pendingSends++;
        if (!producer.held.isEmpty()) {
            hold(producer, frame, messages, bytes, System.nanoTime());
            return;
        }
        long now = System.nanoTime();
        QuotaPath path = path(producer, now);
        if (producer.notice == NoticeState.AWAITING_RECEIPT) {
            // Written before the client saw the notice.
            path.charge(now, messages, bytes);
            forward(producer, frame, messages, bytes, now);
            return;
        }
        if (producer.pausing(now)) {
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
        if (decision.onExceed() == OnExceed.REJECT) {
            reject(producer, fields.lastSequenceId(), now);
            frame.release();
            return;
        }
        if (decision.onExceed() == OnExceed.NOTIFY && connection.notices.clientSupportsNotices()
                && producer.notice != NoticeState.MISSED) {
            path.charge(now, messages, bytes);
            notifyPause(producer, path, now);
            forward(producer, frame, messages, bytes, now);
            return;
        }
        // DELAY, and NOTIFY for clients that cannot be notified or missed a receipt: hold it.
        beginThrottle(producer, now, OnExceed.DELAY);
        hold(producer, frame, messages, bytes, now);
        schedule(producer, decision.waitNanos());
    }

    /** A SEND_RECEIPT or SEND_ERROR from the broker; takes ownership of {@code frame}. */
    void answer(ByteBuf frame, int type) {
        readOrRelease(frame, type);
        connection.toClient(frame);
        ProducerState producer = connection.producers.get(fields.producerId);
        if (producer == null || producer.unanswered() <= 0) {
            return;
        }
        producer.answered++;
        pendingSends--;
        long sentAt = producer.sendTimes.poll();
        if (sentAt != Long.MIN_VALUE) {
            long now = System.nanoTime();
            services.upstreamLatency().record(now - sentAt, now);
        }
        deliverDueRejections(producer);
        checkConnectionLimits();
        connection.closeIfDrained();
    }

    /** Nothing held and no send waiting for the broker's answer. */
    boolean isIdle() {
        return pendingSends == 0 && heldMessages == 0;
    }

    /** The client confirmed notice {@code requestId} in time: rely on it to pause. */
    void noticeAnswered(ProducerState producer, long requestId) {
        if (!awaits(producer, requestId)) {
            return;
        }
        producer.notice = NoticeState.RELYING;
        schedule(producer, producer.throttleEndsAtNanos - System.nanoTime());
    }

    /** No receipt for notice {@code requestId} within the receipt window: hold the producer's sends from now on. */
    void noticeMissed(ProducerState producer, long requestId) {
        if (awaits(producer, requestId)) {
            fallBackToDelay(producer, System.nanoTime());
        }
    }

    /** A producer closed or was replaced: drop what it holds; the client never got receipts for it. */
    void producerGone(ProducerState producer) {
        if (producer.timer != null) {
            producer.timer.cancel(false);
            producer.timer = null;
        }
        if (producer.notice == NoticeState.AWAITING_RECEIPT) {
            connection.notices.forget(producer.noticeRequestId);
        }
        HeldSend send;
        while ((send = producer.held.poll()) != null) {
            send.frame().release();
            unhold(producer, send);
        }
        pendingSends -= producer.unanswered() + producer.rejections.size();
        producer.rejections.clear();
        endThrottle(producer);
        checkConnectionLimits();
    }

    private void readOrRelease(ByteBuf frame, int type) {
        try {
            if (type == SEND_TYPE) {
                FrameReader.readSend(frame, fields);
            } else {
                FrameReader.readReceipt(frame, type, fields);
            }
        } catch (RuntimeException e) {
            frame.release();
            throw e;
        }
    }

    private QuotaPath path(ProducerState producer, long now) {
        QuotaPath path = producer.path;
        if (path == null || !path.isCurrent(now)) {
            path = quotas.publishPath(PulsarScopes.topic(producer.topic));
            producer.path = path;
            producer.meter = services.topics().meter(producer.topic);
        }
        return path;
    }

    private void forward(ProducerState producer, ByteBuf frame, int messages, long bytes, long now) {
        producer.forwarded++;
        producer.sendTimes.add(now);
        producer.meter.published(messages, bytes);
        connection.toBroker(frame);
    }

    /**
     * Tells the client to pause {@code producer} until every bucket on {@code path} admits again;
     * the send that found them empty is already charged.
     */
    private void notifyPause(ProducerState producer, QuotaPath path, long now) {
        long pauseMillis = (path.waitNanos(now) + NANOS_PER_MILLI - 1) / NANOS_PER_MILLI;
        beginThrottle(producer, now, OnExceed.NOTIFY);
        producer.notice = NoticeState.AWAITING_RECEIPT;
        producer.noticeRequestId = connection.notices.quotaExceeded(producer,
                ThrottleNoticeReasons.of(decision.scope()), pauseMillis);
        producer.pauseEndsAtNanos = now + pauseMillis * NANOS_PER_MILLI;
        // One receipt window past the pause, so that a producer notified again right after it stays one throttle.
        producer.throttleEndsAtNanos = producer.pauseEndsAtNanos + receiptWindowNanos;
    }

    /** The client cannot be relied on for this producer: the throttle, and any later one, is a {@code delay}. */
    private void fallBackToDelay(ProducerState producer, long now) {
        producer.notice = NoticeState.MISSED;
        relabelThrottle(producer, OnExceed.DELAY);
        // The delay lasts at least until what the client sent meanwhile is paid for.
        producer.throttleEndsAtNanos = now + path(producer, now).waitNanos(now);
        schedule(producer, producer.throttleEndsAtNanos - now);
    }

    private boolean awaits(ProducerState producer, long requestId) {
        return connection.producers.get(producer.producerId) == producer
                && producer.notice == NoticeState.AWAITING_RECEIPT && producer.noticeRequestId == requestId;
    }

    private void hold(ProducerState producer, ByteBuf frame, int messages, long bytes, long now) {
        producer.held.add(new HeldSend(frame, messages, bytes, now));
        producer.heldBytes += bytes;
        heldBytes += bytes;
        heldMessages += messages;
        path(producer, now);
        producer.meter.held(messages, bytes);
        if (producer.throttle != null) {
            producer.throttle.holding(producer.held.size(), producer.heldBytes);
        }
        checkConnectionLimits();
    }

    private void unhold(ProducerState producer, HeldSend send) {
        producer.heldBytes -= send.bytes();
        heldBytes -= send.bytes();
        heldMessages -= send.messages();
        producer.meter.held(-send.messages(), -send.bytes());
    }

    /** Timer task: forwards the producer's held sends while its buckets allow, then waits again. */
    private void release(ProducerState producer) {
        producer.timer = null;
        if (connection.producers.get(producer.producerId) != producer) {
            return;
        }
        long now = System.nanoTime();
        HeldSend head;
        while ((head = producer.held.peek()) != null) {
            QuotaPath path = path(producer, now);
            if (!path.isUnlimited() && !path.tryAcquire(now, head.messages(), head.bytes(), decision)) {
                if (decision.onExceed() == OnExceed.REJECT) {
                    // The limit turned to reject while this send was held: reject it in order.
                    producer.held.poll();
                    unhold(producer, head);
                    long sequenceId = sequenceIdOf(head.frame());
                    head.frame().release();
                    reject(producer, sequenceId, now);
                    continue;
                }
                schedule(producer, decision.waitNanos());
                break;
            }
            producer.held.poll();
            unhold(producer, head);
            services.throttles().delayed(producer.throttle == null ? "topic" : producer.throttle.scope(),
                    now - head.heldAtNanos());
            forward(producer, head.frame(), head.messages(), head.bytes(), now);
        }
        if (!producer.held.isEmpty()) {
            producer.throttle.holding(producer.held.size(), producer.heldBytes);
        } else if (producer.notice == NoticeState.AWAITING_RECEIPT) {
            // The receipt, or its absence, decides what comes next and schedules it.
            producer.throttle.holding(0, 0);
        } else if (producer.rejections.isEmpty() && now - producer.throttleEndsAtNanos >= 0) {
            endThrottle(producer);
        } else if (producer.throttle != null) {
            producer.throttle.holding(0, 0);
            schedule(producer, producer.throttleEndsAtNanos - now);
        }
        connection.flushBroker();
        connection.flushClient();
        checkConnectionLimits();
    }

    private long sequenceIdOf(ByteBuf frame) {
        FrameReader.readSend(frame, fields);
        return fields.lastSequenceId();
    }

    private void schedule(ProducerState producer, long waitNanos) {
        if (producer.timer != null) {
            return;
        }
        long delay = Math.max(1_000, Math.min(waitNanos, MAX_TIMER_NANOS));
        producer.timer = connection.client.eventLoop().schedule(() -> release(producer), delay, TimeUnit.NANOSECONDS);
    }

    private void reject(ProducerState producer, long sequenceId, long now) {
        beginThrottle(producer, now, OnExceed.REJECT);
        producer.throttleEndsAtNanos = now + decision.waitNanos();
        String message = decision.rejectMessage();
        schedule(producer, decision.waitNanos());
        if (producer.unanswered() == 0 && producer.rejections.isEmpty()) {
            sendError(producer, sequenceId, message);
        } else {
            producer.rejections.add(new PendingRejection(sequenceId, message, producer.forwarded));
        }
    }

    private void deliverDueRejections(ProducerState producer) {
        PendingRejection due;
        while ((due = producer.rejections.peek()) != null && producer.answered >= due.afterForwarded()) {
            producer.rejections.poll();
            sendError(producer, due.sequenceId(), due.message());
        }
    }

    private void sendError(ProducerState producer, long sequenceId, String message) {
        pendingSends--;
        connection.toClient(FrameWriter.sendError(connection.client.alloc(), producer.producerId, sequenceId,
                ServerError.NotAllowedError, message));
    }

    /**
     * Records that the producer is throttled, at the scope {@link #decision} names, with the action
     * the proxy takes (for {@code notify} that depends on the client). A running throttle goes on
     * unless the action changed.
     */
    private void beginThrottle(ProducerState producer, long now, OnExceed action) {
        if (producer.throttle != null) {
            if (producer.throttle.action().equals(action.jsonName())) {
                return;
            }
            services.throttles().end(producer.throttle);
        }
        producer.throttle = services.throttles().begin(String.valueOf(connection.client.remoteAddress()),
                producer.producerId, null, producer.topic, decision.scope().label(), ThrottleReasons.of(decision),
                action.jsonName());
        path(producer, now);
        producer.meter.throttled();
    }

    /** The running throttle goes on with another action, for the same scope and reason. */
    private void relabelThrottle(ProducerState producer, OnExceed action) {
        Throttle old = producer.throttle;
        services.throttles().end(old);
        producer.throttle = services.throttles().begin(String.valueOf(connection.client.remoteAddress()),
                producer.producerId, null, producer.topic, old.scope(), old.reason(), action.jsonName());
        producer.meter.throttled();
    }

    /**
     * Ends a throttle that is over: nothing held or rejected, no receipt awaited, and past the
     * retry time of a rejection or the pause (plus a receipt window) of a notice.
     */
    private void endThrottleIfOver(ProducerState producer, long now) {
        if (producer.throttle != null && producer.held.isEmpty() && producer.rejections.isEmpty()
                && producer.notice != NoticeState.AWAITING_RECEIPT && now - producer.throttleEndsAtNanos >= 0) {
            endThrottle(producer);
        }
    }

    private void endThrottle(ProducerState producer) {
        if (producer.throttle != null) {
            services.throttles().end(producer.throttle);
            producer.throttle = null;
        }
        if (producer.notice != NoticeState.MISSED) {
            producer.notice = NoticeState.NONE;
        }
    }

    private void checkConnectionLimits() {
        ConnectionLimits limits = quotas.limits().connection();
        boolean tooManyPending = pendingSends > limits.maxPendingSends();
        if (tooManyPending || heldBytes > limits.maxHeldBytes()) {
            if (connection.pauseClientReads()) {
                connection.notices.connectionLimitExceeded(tooManyPending
                        ? ThrottlingReason.ConnectionPendingMessagesBreach : ThrottlingReason.MessageBufferSizeBreach);
            }
        } else if (pendingSends <= limits.maxPendingSends() / 2 && heldBytes <= limits.maxHeldBytes() / 2) {
            connection.resumeClientReads();
        }
    }

    long heldBytes() {
        return heldBytes;
    }

    long heldMessages() {
        return heldMessages;
    }
}
