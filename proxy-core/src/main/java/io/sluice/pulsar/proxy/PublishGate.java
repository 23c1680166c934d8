package io.sluice.pulsar.proxy;

import io.netty.buffer.ByteBuf;
import io.sluice.pulsar.codec.FrameReader;
import io.sluice.pulsar.codec.FrameWriter;
import io.sluice.pulsar.codec.SendFields;
import io.sluice.pulsar.codec.proto.BaseCommand;
import io.sluice.pulsar.codec.proto.ServerError;
import io.sluice.pulsar.proxy.ProducerState.HeldSend;
import io.sluice.pulsar.proxy.ProducerState.PendingRejection;
import io.sluice.quota.ConnectionLimits;
import io.sluice.quota.OnExceed;
import io.sluice.quota.QuotaDecision;
import io.sluice.quota.QuotaEngine;
import io.sluice.quota.QuotaPath;

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
 * <p>Connection limits: while the sends without a broker answer exceed {@code maxPendingSends}
 * or the held bytes exceed {@code maxHeldBytes}, the connection is not read; reading resumes
 * when both are under half.
 *
 * <p>Confined to the connection's event loop.
 */
final class PublishGate {

    /** Longest a held producer waits before its quota is looked at again (picks up limit changes). */
    private static final int SEND_TYPE = BaseCommand.Type.SEND_VALUE;

    private static final long MAX_TIMER_NANOS = TimeUnit.MILLISECONDS.toNanos(100);

    private final ProxyConnection connection;
    private final ProxyServices services;
    private final QuotaEngine quotas;
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
        if (path.isUnlimited() || path.tryAcquire(now, messages, bytes, decision)) {
            endRejectThrottle(producer, now);
            forward(producer, frame, messages, bytes);
            return;
        }
        if (decision.onExceed() == OnExceed.REJECT) {
            reject(producer, fields.lastSequenceId(), now);
            frame.release();
            return;
        }
        // DELAY, and NOTIFY for clients that cannot be notified: hold it.
        beginThrottle(producer, now);
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
        deliverDueRejections(producer);
        checkConnectionLimits();
        connection.closeIfDrained();
    }

    /** Nothing held and no send waiting for the broker's answer. */
    boolean isIdle() {
        return pendingSends == 0 && heldMessages == 0;
    }

    /** A producer closed or was replaced: drop what it holds; the client never got receipts for it. */
    void producerGone(ProducerState producer) {
        if (producer.timer != null) {
            producer.timer.cancel(false);
            producer.timer = null;
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
            path = quotas.publishPath(producer.topic);
            producer.path = path;
            producer.meter = services.topics().meter(producer.topic);
        }
        return path;
    }

    private void forward(ProducerState producer, ByteBuf frame, int messages, long bytes) {
        producer.forwarded++;
        producer.meter.published(messages, bytes);
        connection.toBroker(frame);
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
                    head.frame().release();
                    reject(producer, sequenceIdOf(head.frame()), now);
                    continue;
                }
                schedule(producer, decision.waitNanos());
                break;
            }
            producer.held.poll();
            unhold(producer, head);
            services.throttles().delayed(producer.throttle == null ? "topic" : producer.throttle.scope(),
                    now - head.heldAtNanos());
            forward(producer, head.frame(), head.messages(), head.bytes());
        }
        if (!producer.held.isEmpty()) {
            producer.throttle.holding(producer.held.size(), producer.heldBytes);
        } else if (producer.rejections.isEmpty() && now - producer.throttleEndsAtNanos >= 0) {
            endThrottle(producer);
        } else if (producer.throttle != null) {
            producer.throttle.holding(0, 0);
            schedule(producer, producer.throttleEndsAtNanos - now);
        }
        connection.flushBroker();
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
        beginThrottle(producer, now);
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

    private void beginThrottle(ProducerState producer, long now) {
        if (producer.throttle != null) {
            return;
        }
        String reason = ThrottleReasons.of(decision);
        producer.throttle = services.throttles().begin(String.valueOf(connection.client.remoteAddress()),
                producer.producerId, null, producer.topic, decision.scope().label(), reason,
                decision.onExceed().jsonName());
        path(producer, now);
        producer.meter.throttled();
    }

    /** A rejecting producer's throttle ends with its first admitted send after the retry time. */
    private void endRejectThrottle(ProducerState producer, long now) {
        if (producer.throttle != null && producer.held.isEmpty() && producer.rejections.isEmpty()
                && now - producer.throttleEndsAtNanos >= 0) {
            endThrottle(producer);
        }
    }

    private void endThrottle(ProducerState producer) {
        if (producer.throttle != null) {
            services.throttles().end(producer.throttle);
            producer.throttle = null;
        }
    }

    private void checkConnectionLimits() {
        ConnectionLimits limits = quotas.limits().connection();
        if (pendingSends > limits.maxPendingSends() || heldBytes > limits.maxHeldBytes()) {
            connection.pauseClientReads();
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
