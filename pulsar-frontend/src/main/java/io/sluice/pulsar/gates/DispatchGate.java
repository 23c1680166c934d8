package io.sluice.pulsar.gates;

import io.netty.util.collection.LongObjectHashMap;
import io.netty.util.collection.LongObjectMap;
import io.sluice.limits.Direction;
import io.sluice.pulsar.codec.FrameCommand;
import io.sluice.pulsar.codec.FrameReader;
import io.sluice.pulsar.codec.FrameWriter;
import io.sluice.pulsar.codec.proto.BaseCommand;
import io.sluice.pulsar.codec.proto.CommandFlow;
import io.sluice.pulsar.scopes.PulsarScopes;
import io.sluice.quota.NanoClock;
import io.sluice.quota.QuotaDecision;
import io.sluice.quota.QuotaPath;
import io.sluice.relay.FrameView;
import io.sluice.relay.Outbound;
import io.sluice.relay.ProxyServices;
import io.sluice.relay.Throttling;
import io.sluice.relay.TopicQuota;
import io.sluice.relay.WakeUps;
import io.sluice.status.CurrentThrottle;

/**
 * Dispatch quotas for one connection, enforced by metering FLOW permits: the broker sends a
 * consumer only as many messages as it has permits for, so Sluice passes the client's permits
 * on no faster than the topic's dispatch rate allows. Bytes are charged as MESSAGE frames come
 * back; while a byte bucket is negative, permits are withheld. Nothing is dropped or reordered:
 * every message the broker sends is forwarded, Sluice only decides when the broker may send more.
 * Withheld permits are a {@code delay} whatever the limit's action ({@link PulsarActions#permits}),
 * and are recorded as one.
 *
 * <p>Confined to the connection's event loop.
 */
public final class DispatchGate implements ResourceLifecycle.Gate<ConsumerState> {

    private static final int MESSAGE = BaseCommand.Type.MESSAGE_VALUE;

    /** Permits passed per step: small enough to pace smoothly, large enough to keep timers rare. */
    private static final int STEP = 10;

    /** More permits than a consumer can be owed (FLOW's messagePermits is a uint32). */
    private static final long MAX_PERMITS = 0xFFFF_FFFFL;

    private final Outbound out;
    private final WakeUps timers;
    private final NanoClock clock;
    private final ProxyServices services;
    /** Permits the client granted consumers that are not created yet, passed on (metered) once they are. */
    private final LongObjectMap<Long> earlyPermits = new LongObjectHashMap<>();

    private final QuotaDecision decision = new QuotaDecision();
    private final ResourceLifecycle<ConsumerState> lifecycle;
    private final ResourceRegistry<ConsumerState> consumers;

    /**
     * @param out           where frames go
     * @param timers        the connection's one timer, which its consumers' timers share
     * @param clock         the connection's clock, on the engine's time scale
     * @param clientAddress the client's address, as {@code /api/v1/throttled} shows it
     */
    public DispatchGate(Outbound out, WakeUps timers, NanoClock clock, ProxyServices services, String clientAddress) {
        this.lifecycle =
                new ResourceLifecycle<>(services, clientAddress, Direction.DISPATCH, PulsarScopes.CONSUMER_ID, this);
        this.consumers = lifecycle.registry();
        this.out = out;
        this.timers = timers;
        this.clock = clock;
        this.services = services;
    }

    /** The connection's consumers: the connection reports each one's requests, answers and close here. */
    public ResourceLifecycle<ConsumerState> consumers() {
        return lifecycle;
    }

    /**
     * The broker's SUCCESS for a consumer: the permits its client granted before are passed on as the
     * dispatch limits allow.
     */
    @Override
    public void created(ConsumerState consumer) {
        Long early = earlyPermits.remove(consumer.consumerId);
        if (early != null) {
            consumer.withheldPermits += early;
            release(consumer);
        }
    }

    /** Consumer {@code consumerId} was closed, or its SUBSCRIBE refused: the permits it was granted early are dropped. */
    @Override
    public void forgotten(long consumerId) {
        earlyPermits.remove(consumerId);
    }

    /** The connection closes: every consumer is gone. */
    public void close() {
        earlyPermits.clear();
        lifecycle.closeAll();
    }

    /**
     * A FLOW from the client, lent: forwarded as it is, or its permits withheld and passed on later.
     * Permits for a consumer not created yet wait for the broker's answer; permits for a consumer
     * Sluice does not track are dropped, as the broker drops them, so that none reach the broker
     * unmetered.
     */
    public void flow(FrameView frame) {
        CommandFlow flow = FrameReader.parse(frame).getFlow();
        ConsumerState consumer = consumers.get(flow.getConsumerId());
        if (consumer == null) {
            untracked(flow.getConsumerId(), Integer.toUnsignedLong(flow.getMessagePermits()));
            return;
        }
        if (consumer.withheldPermits == 0
                && consumer.quota.path(clock.nanoTime()).isUnlimited()) {
            out.toUpstream(frame);
            return;
        }
        consumer.withheldPermits += Integer.toUnsignedLong(flow.getMessagePermits());
        release(consumer);
    }

    private void untracked(long consumerId, long permits) {
        if (consumers.isPending(consumerId)) {
            Long before = earlyPermits.get(consumerId);
            long owed = (before == null ? 0 : before) + permits;
            earlyPermits.put(consumerId, (Long) Math.min(owed, MAX_PERMITS));
        } else if (!consumers.isRecentlyClosed(consumerId)) {
            services.stats().protocolError("flow_untracked_consumer");
        }
    }

    /** A MESSAGE from the broker, lent, and its command as read; counts it and charges its bytes. */
    public void message(FrameView frame, FrameCommand command) {
        ConsumerState consumer = consumers.get(FrameReader.readFirstId(command, MESSAGE));
        if (consumer == null) {
            return;
        }
        long now = clock.nanoTime();
        QuotaPath path = consumer.quota.path(now);
        long bytes = FrameReader.payloadSize(frame);
        int messages = FrameReader.messagesInEntry(frame);
        consumer.quota.meter().dispatched(messages, bytes);
        consumer.outstandingPermits = Math.max(0, consumer.outstandingPermits - messages);
        if (!path.isUnlimited()) {
            path.charge(now, 0, bytes);
            if (consumer.withheldPermits > 0 && !consumer.timer.isScheduled()) {
                release(consumer);
            }
        }
    }

    /** A consumer closed: forget what it was owed; the client re-grants permits on a new subscription. */
    @Override
    public void gone(ConsumerState consumer) {
        consumer.timer.cancel();
        consumer.withheldPermits = 0;
        consumer.throttle.end();
    }

    @Override
    public ConsumerState active(long consumerId, TopicQuota quota, CurrentThrottle throttle) {
        return new ConsumerState(consumerId, quota, throttle, timers, PublishGate.MAX_TIMER_NANOS, this::release);
    }

    /** Passes withheld permits to the broker while the buckets allow, then waits for them. */
    private void release(ConsumerState consumer) {
        if (consumers.get(consumer.consumerId) != consumer) {
            return;
        }
        long now = clock.nanoTime();
        QuotaPath path = consumer.quota.path(now);
        int granted = 0;
        // Bytes are only known when messages come back, so with a byte limit one step at a time is
        // out with the broker; the next waits until its bytes are charged.
        boolean oneStepOut = path.limitsBytes();
        while (consumer.withheldPermits > 0 && !(oneStepOut && consumer.outstandingPermits + granted >= STEP)) {
            int step = (int) Math.min(consumer.withheldPermits, path.isUnlimited() ? Integer.MAX_VALUE : STEP);
            if (!path.isUnlimited() && !path.tryAcquire(now, step, 0, decision)) {
                Throttling taken = PulsarActions.permits(decision.onExceed());
                consumer.throttle.begin(
                        decision.scope().kind().label(),
                        decision.reason(),
                        taken.action().jsonName(),
                        consumer.quota.meter());
                consumer.timer.schedule(decision.waitNanos());
                break;
            }
            consumer.withheldPermits -= step;
            granted += step;
        }
        if (consumer.withheldPermits == 0) {
            consumer.throttle.end();
        }
        if (granted > 0) {
            consumer.outstandingPermits += granted;
            out.toUpstream(FrameWriter.flow(out.alloc(), consumer.consumerId, granted));
            out.flush();
        }
    }
}
