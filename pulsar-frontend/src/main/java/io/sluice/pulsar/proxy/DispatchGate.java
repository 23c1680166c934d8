package io.sluice.pulsar.proxy;

import io.sluice.scopes.PulsarScopes;
import io.sluice.relay.ProxyServices;
import io.netty.buffer.ByteBuf;
import io.sluice.pulsar.codec.FrameReader;
import io.sluice.pulsar.codec.FrameWriter;
import io.sluice.pulsar.codec.proto.BaseCommand;
import io.sluice.quota.QuotaDecision;
import io.sluice.quota.QuotaPath;

import java.util.concurrent.TimeUnit;

/**
 * Dispatch quotas for one connection, enforced by metering FLOW permits: the broker sends a
 * consumer only as many messages as it has permits for, so Sluice passes the client's permits
 * on no faster than the topic's dispatch rate allows. Bytes are charged as MESSAGE frames come
 * back; while a byte bucket is negative, permits are withheld. Nothing is dropped or reordered:
 * every message the broker sends is forwarded, Sluice only decides when the broker may send more.
 *
 * <p>Confined to the connection's event loop.
 */
final class DispatchGate {

    private static final int MESSAGE = BaseCommand.Type.MESSAGE_VALUE;

    /** Permits passed per step: small enough to pace smoothly, large enough to keep timers rare. */
    private static final int STEP = 10;
    private static final long MAX_TIMER_NANOS = TimeUnit.MILLISECONDS.toNanos(100);

    private final ProxyConnection connection;
    private final ProxyServices services;
    private final QuotaDecision decision = new QuotaDecision();

    DispatchGate(ProxyConnection connection, ProxyServices services) {
        this.connection = connection;
        this.services = services;
    }

    /** A FLOW from the client; takes ownership of {@code frame}. */
    void flow(ByteBuf frame) {
        long consumerId;
        int permits;
        try {
            var flow = FrameReader.parse(frame).getFlow();
            consumerId = flow.getConsumerId();
            permits = flow.getMessagePermits();
        } catch (RuntimeException e) {
            frame.release();
            throw e;
        }
        ConsumerState consumer = connection.consumers.get(consumerId);
        if (consumer == null || (consumer.withheldPermits == 0 && path(consumer, System.nanoTime()).isUnlimited())) {
            connection.toBroker(frame);
            return;
        }
        frame.release();
        consumer.withheldPermits += permits;
        release(consumer);
    }

    /** A MESSAGE from the broker; counts it and charges its bytes. Does not take the frame. */
    void message(ByteBuf frame) {
        ConsumerState consumer = connection.consumers.get(FrameReader.readFirstId(frame, MESSAGE));
        if (consumer == null) {
            return;
        }
        long now = System.nanoTime();
        QuotaPath path = path(consumer, now);
        long bytes = FrameReader.payloadSize(frame);
        int messages = FrameReader.messagesInEntry(frame);
        consumer.meter.dispatched(messages, bytes);
        consumer.outstandingPermits = Math.max(0, consumer.outstandingPermits - messages);
        if (!path.isUnlimited()) {
            path.charge(now, 0, bytes);
            if (consumer.withheldPermits > 0 && consumer.timer == null) {
                release(consumer);
            }
        }
    }

    /** A consumer closed: forget what it was owed; the client re-grants permits on a new subscription. */
    void consumerGone(ConsumerState consumer) {
        if (consumer.timer != null) {
            consumer.timer.cancel(false);
            consumer.timer = null;
        }
        consumer.withheldPermits = 0;
        endThrottle(consumer);
    }

    private QuotaPath path(ConsumerState consumer, long now) {
        QuotaPath path = consumer.path;
        if (path == null || !path.isCurrent(now)) {
            path = services.quotas().dispatchPath(PulsarScopes.topic(consumer.topic));
            consumer.path = path;
            consumer.meter = services.topics().meter(consumer.topic);
        }
        return path;
    }

    /** Passes withheld permits to the broker while the buckets allow, then waits for them. */
    private void release(ConsumerState consumer) {
        consumer.timer = null;
        if (connection.consumers.get(consumer.consumerId) != consumer) {
            return;
        }
        long now = System.nanoTime();
        QuotaPath path = path(consumer, now);
        int granted = 0;
        // Bytes are only known when messages come back, so with a byte limit one step at a time is
        // out with the broker; the next waits until its bytes are charged.
        boolean oneStepOut = path.limitsBytes();
        while (consumer.withheldPermits > 0 && !(oneStepOut && consumer.outstandingPermits + granted >= STEP)) {
            int step = (int) Math.min(consumer.withheldPermits, path.isUnlimited() ? Integer.MAX_VALUE : STEP);
            if (!path.isUnlimited() && !path.tryAcquire(now, step, 0, decision)) {
                beginThrottle(consumer);
                long delay = Math.max(1_000, Math.min(decision.waitNanos(), MAX_TIMER_NANOS));
                consumer.timer = connection.client.eventLoop().schedule(() -> release(consumer), delay, TimeUnit.NANOSECONDS);
                break;
            }
            consumer.withheldPermits -= step;
            granted += step;
        }
        if (consumer.withheldPermits == 0) {
            endThrottle(consumer);
        }
        if (granted > 0) {
            consumer.outstandingPermits += granted;
            connection.toBroker(FrameWriter.flow(connection.client.alloc(), consumer.consumerId, granted));
            connection.flushBroker();
        }
    }

    private void beginThrottle(ConsumerState consumer) {
        if (consumer.throttle == null) {
            String reason = ThrottleReasons.of(decision);
            consumer.throttle = services.throttles().begin(String.valueOf(connection.client.remoteAddress()), null,
                    consumer.consumerId, consumer.topic, decision.scope().label(), reason, "delay");
            consumer.meter.throttled();
        }
    }

    private void endThrottle(ConsumerState consumer) {
        if (consumer.throttle != null) {
            services.throttles().end(consumer.throttle);
            consumer.throttle = null;
        }
    }
}
