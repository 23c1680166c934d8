package io.sluice.kafka.gates;

import io.netty.util.concurrent.EventExecutor;
import io.sluice.kafka.codec.RequestHeader;
import io.sluice.kafka.routing.TopicIdLookup;
import io.sluice.kafka.scopes.KafkaScopes;
import io.sluice.limits.Direction;
import io.sluice.limits.ScopeRef;
import io.sluice.quota.NanoClock;
import io.sluice.quota.QuotaDecision;
import io.sluice.relay.ConnectionHolds;
import io.sluice.relay.FrameView;
import io.sluice.relay.ProxyServices;
import io.sluice.relay.RequestThrottle;
import io.sluice.relay.Throttling;
import io.sluice.relay.TopicQuota;
import io.sluice.status.ClientIdentity;
import io.sluice.status.ThrottleSubject;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

/**
 * What the produce and fetch gates of one connection share: the one way out, which carries out
 * their verdicts ({@code out}), the event loop and clock, the engine's services, the connection's topics and identity, the lookup of topic ids nobody named
 * to it, the reasons to pause its requests, and what its holds share (its one timer, its budget).
 *
 * @param holds         what the connection's holds share, and its one timer for every gate timer
 * @param clientAddress the client's address, as {@code /api/v1/throttled} shows it
 */
record GateContext(
        KafkaOutbound out,
        EventExecutor loop,
        NanoClock clock,
        ProxyServices services,
        TopicTable topics,
        ConnectionIdentity identity,
        TopicIdLookup topicIdLookup,
        RequestPauses pauses,
        ConnectionHolds holds,
        String clientAddress) {

    /** Longest a timer waits before it looks again (picks up limit changes within this). */
    static final long MAX_TIMER_NANOS = TimeUnit.MILLISECONDS.toNanos(100);

    private static final String PROTOCOL = KafkaScopes.PROTOCOL;

    /**
     * The state of topic {@code entry} in {@code direction}, held in {@code current}: made when there
     * is none, released by {@code release}, re-chained when the client id or principal changed since.
     */
    GatedTopic gated(TopicTable.Entry entry, GatedTopic current, Direction direction, TopicRelease release) {
        int generation = identity.generation();
        if (current != null && current.generation == generation) {
            return current;
        }
        TopicQuota quota = new TopicQuota(
                services.quotas(),
                services.topics(),
                direction,
                PROTOCOL,
                entry.name,
                KafkaScopes.topic(entry.name, identity.clientId(), identity.principal()));
        TopicThrottle throttle = new TopicThrottle(
                services.throttles(),
                new ThrottleSubject(
                        PROTOCOL,
                        clientAddress,
                        entry.name,
                        ClientIdentity.of(
                                KafkaScopes.CLIENT_ID.of(identity.clientId()),
                                KafkaScopes.PRINCIPAL_FIELD.of(identity.principal()))));
        if (current == null) {
            return new GatedTopic(quota, throttle, generation, holds, MAX_TIMER_NANOS, release);
        }
        current.rechain(quota, throttle, generation);
        return current;
    }

    /**
     * Records that {@code topic} is throttled, as {@code decision} found, with the action the gate
     * takes ({@code taken}) until {@code untilNanos}; the topic's timer looks again then.
     */
    void throttled(GatedTopic topic, QuotaDecision decision, Throttling taken, long untilNanos) {
        topic.throttle.begin(decision, taken.action(), topic.quota.meter(), untilNanos);
        topic.hold.lookAgainIn(untilNanos - clock.nanoTime());
    }

    /**
     * The connection's client as a throttle of its requests that name no topic names it: its client
     * id and principal, then {@code more} identity fields (a group's id).
     */
    ThrottleSubject client(ClientIdentity.Value... more) {
        ClientIdentity.Value[] values = new ClientIdentity.Value[2 + more.length];
        values[0] = KafkaScopes.CLIENT_ID.of(identity.clientId());
        values[1] = KafkaScopes.PRINCIPAL_FIELD.of(identity.principal());
        System.arraycopy(more, 0, values, 2, more.length);
        return new ThrottleSubject(PROTOCOL, clientAddress, null, ClientIdentity.of(values));
    }

    /**
     * A throttle of the connection's requests that name no topic, on the connection's one timer;
     * {@code holding} says whether its gate still holds a request of the client.
     */
    RequestThrottle requestThrottle(BooleanSupplier holding) {
        return new RequestThrottle(services.throttles(), holds.timers(), clock, MAX_TIMER_NANOS, holding);
    }

    /**
     * The scopes of the connection's identities, as far as they are known: its client id's (when its
     * requests name one) and its principal's, with room for {@code more}.
     */
    List<ScopeRef> identityScopes(int more) {
        List<ScopeRef> scopes = new ArrayList<>(2 + more);
        if (identity.clientId() != null && !identity.clientId().isEmpty()) {
            scopes.add(new ScopeRef(KafkaScopes.CLIENT, identity.clientId()));
        }
        scopes.add(new ScopeRef(KafkaScopes.PRINCIPAL, identity.principal()));
        return scopes;
    }

    /**
     * A request arrived, whose header {@code header} just read from {@code frame}: notes its client
     * id, lets the topics forget what nobody used for long, and returns the time.
     */
    long arrived(FrameView frame, RequestHeader header) {
        long now = clock.nanoTime();
        identity.clientId(frame, header);
        topics.sweep(now);
        return now;
    }

    /** Nanoseconds as whole milliseconds, rounded up, so that a client waiting them is not early. */
    static int ceilMillis(long nanos) {
        return (int) Math.min(Integer.MAX_VALUE, (nanos + 999_999) / 1_000_000);
    }
}
