package io.sluice.pulsar.gates;

import io.netty.buffer.ByteBuf;
import io.sluice.limits.AddressScopes;
import io.sluice.limits.LimitPart;
import io.sluice.limits.LimitsDocument;
import io.sluice.limits.OnExceed;
import io.sluice.limits.ScopeChain;
import io.sluice.limits.ScopeRef;
import io.sluice.pulsar.codec.FrameReader;
import io.sluice.pulsar.codec.FrameWriter;
import io.sluice.pulsar.codec.proto.BaseCommand;
import io.sluice.pulsar.codec.proto.ServerError;
import io.sluice.pulsar.scopes.PulsarScopes;
import io.sluice.pulsar.scopes.TopicName;
import io.sluice.quota.NanoClock;
import io.sluice.quota.QuotaDecision;
import io.sluice.quota.QuotaPath;
import io.sluice.relay.FrameView;
import io.sluice.relay.Outbound;
import io.sluice.relay.ProxyServices;
import io.sluice.relay.RequestThrottle;
import io.sluice.relay.WakeUp;
import io.sluice.relay.WakeUps;
import io.sluice.settings.InvalidSettingsException;
import io.sluice.status.ClientIdentity;
import io.sluice.status.ThrottleSubject;

import java.net.InetAddress;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * Rates of requests that create work on the broker, for one connection (docs/REFERENCE.md,
 * "Limits", {@code requests}): LOOKUP, PARTITIONED_METADATA, PRODUCER, SUBSCRIBE,
 * GET_TOPICS_OF_NAMESPACE and GET_SCHEMA pass here before anything else looks at them, and are
 * charged one each to the scopes they fall under: the topic they name with its partitioned topic,
 * namespace and tenant (a namespace's topic list: the namespace and tenant), the role the broker
 * accepted for the connection, the client's address ({@code ips}) and the proxy. Within the rates a
 * request goes on at once. Over them:
 * <ul>
 *   <li>{@code delay} (and {@code notify}, which has no notice for these commands): the request is
 *       charged and held here, a copy of its own, until the buckets would have admitted it, then
 *       passed on; the connection's other commands flow meanwhile, and held requests go on in the
 *       order they came.</li>
 *   <li>{@code reject}, a wait over {@link #MAX_HOLD_NANOS}, or {@link #MAX_HELD} requests held
 *       already: answered at once, uncharged, with the command's own error response (a failed
 *       LOOKUP_RESPONSE or PARTITIONED_METADATA_RESPONSE, a GET_SCHEMA_RESPONSE with its error, an
 *       ERROR for the others) carrying {@code TooManyRequests} and a message that says it is
 *       Sluice's; the stock client retries after its back-off.</li>
 * </ul>
 * Either way the connection's client is throttled (no topic; the exceeded scope, reason
 * {@code work_requests}) in {@code /api/v1/throttled} and the throttle metrics until the wait is
 * over. Nothing is parsed or charged while no limit in force has a rate of requests.
 *
 * <p>Confined to the connection's event loop.
 */
public final class RequestGate {

    /** The longest a request is held: well under the 30 s a Java client waits for an answer. */
    static final long MAX_HOLD_NANOS = TimeUnit.SECONDS.toNanos(10);

    /** The most requests one connection has held at once; more are refused, so a flood pins little memory. */
    static final int MAX_HELD = 256;

    private static final int LOOKUP = BaseCommand.Type.LOOKUP_VALUE;
    private static final int PARTITIONED_METADATA = BaseCommand.Type.PARTITIONED_METADATA_VALUE;
    private static final int PRODUCER = BaseCommand.Type.PRODUCER_VALUE;
    private static final int SUBSCRIBE = BaseCommand.Type.SUBSCRIBE_VALUE;
    private static final int GET_TOPICS_OF_NAMESPACE = BaseCommand.Type.GET_TOPICS_OF_NAMESPACE_VALUE;
    private static final int GET_SCHEMA = BaseCommand.Type.GET_SCHEMA_VALUE;

    private final Outbound out;
    private final NanoClock clock;
    private final ProxyServices services;
    private final String clientAddress;
    private final InetAddress address;
    private final Consumer<ByteBuf> passOn;
    private final WakeUp timer;
    private final RequestThrottle throttle;
    private final QuotaDecision decision = new QuotaDecision();
    private final ArrayDeque<Held> held = new ArrayDeque<>();

    /** The limits {@link #limited} and {@link #addressScopes} were read from. */
    private LimitsDocument readOf;

    private boolean limited;
    private AddressScopes addressScopes;
    private String role;

    /**
     * @param out the connection, where refusals go
     * @param address the client's address, for {@code ips} limits; {@code null} when it has none
     * @param passOn takes a held request once its wait is over, and owns it from then: carries on
     *     with it as with a request this gate admitted at once
     */
    public RequestGate(
            Outbound out,
            WakeUps timers,
            NanoClock clock,
            ProxyServices services,
            String clientAddress,
            InetAddress address,
            Consumer<ByteBuf> passOn) {
        this.out = out;
        this.clock = clock;
        this.services = services;
        this.clientAddress = clientAddress;
        this.address = address;
        this.passOn = passOn;
        this.timer = timers.timer(PublishGate.MAX_TIMER_NANOS, this::due);
        this.throttle = new RequestThrottle(
                services.throttles(), timers, clock, PublishGate.MAX_TIMER_NANOS, () -> !held.isEmpty());
    }

    /** Whether commands of BaseCommand type {@code type} are requests this gate counts. */
    public static boolean counts(int type) {
        return type == LOOKUP
                || type == PARTITIONED_METADATA
                || type == PRODUCER
                || type == SUBSCRIBE
                || type == GET_TOPICS_OF_NAMESPACE
                || type == GET_SCHEMA;
    }

    /**
     * The broker accepted the connection as {@code role} (its CONNECTED): its requests are charged
     * to that role too.
     */
    public void authenticated(String role) {
        this.role = role;
    }

    /**
     * Whether the lent request {@code frame}, of a type this gate {@link #counts}, goes on now. When
     * not, it is held (a copy; the frame stays its lender's) or answered. An unreadable request
     * raises a {@code MalformedFrameException}, before anything is charged.
     */
    public boolean admit(FrameView frame, int type) {
        LimitsDocument limits = services.quotas().limits();
        if (limits != readOf) {
            readOf = limits;
            limited = limits.sets(LimitPart.REQUESTS);
            addressScopes = AddressScopes.of(limits);
        }
        if (!limited) {
            return true;
        }
        Request request = Request.of(FrameReader.parse(frame), type);
        long now = clock.nanoTime();
        QuotaPath path = services.quotas().requestPath(scopes(request, limits));
        if (path.isUnlimited() || path.tryAcquire(now, 1, 0, decision)) {
            return true;
        }
        long wait = decision.waitNanos();
        if (decision.onExceed() == OnExceed.REJECT || wait > MAX_HOLD_NANOS || held.size() >= MAX_HELD) {
            throttled(OnExceed.REJECT, now, now + wait);
            out.toClient(refusal(request, "Sluice refused the request, " + decision.rejectMessage()));
            return false;
        }
        path.charge(now, 1, 0);
        throttled(OnExceed.DELAY, now, now + wait);
        held.add(new Held(
                frame.heldCopy(out.alloc()),
                now,
                now + wait,
                decision.scope().kind().label()));
        throttle.holding(held.size(), 0);
        timer.schedule(held.peek().dueNanos() - now);
        return false;
    }

    /** No request is held. */
    public boolean isIdle() {
        return held.isEmpty();
    }

    /** The connection closes: held requests are dropped, the throttle ends, the timer stops. */
    public void close() {
        Held request;
        while ((request = held.poll()) != null) {
            request.frame().release();
        }
        timer.cancel();
        throttle.end();
    }

    /** The scopes {@code request} falls under, most specific first as far as the engine cares. */
    private List<ScopeRef> scopes(Request request, LimitsDocument limits) {
        ScopeChain chain = request.topic() != null
                ? PulsarScopes.topic(request.topic(), role)
                : PulsarScopes.namespace(request.namespace(), role);
        List<ScopeRef> scopes = new ArrayList<>(chain.scopes(limits));
        ScopeRef addressScope = address == null ? null : addressScopes.scopeOf(address);
        if (addressScope != null) {
            scopes.add(addressScope);
        }
        return scopes;
    }

    /** Timer task: passes on the held requests whose wait is over. */
    private void due() {
        long now = clock.nanoTime();
        Held first;
        boolean passed = false;
        while ((first = held.peek()) != null && first.dueNanos() - now <= 0) {
            held.poll();
            services.throttles().delayed(first.scope(), now - first.heldAtNanos());
            passed = true;
            passOn.accept(first.frame());
        }
        throttle.holding(held.size(), 0);
        if (passed) {
            out.flush();
        }
        if (first != null) {
            timer.schedule(first.dueNanos() - now);
        } else {
            throttle.endIfOver();
        }
    }

    /** The connection's client is throttled as {@link #decision} found, Sluice taking {@code action}, until {@code untilNanos} at least. */
    private void throttled(OnExceed action, long now, long untilNanos) {
        throttle.throttled(
                new ThrottleSubject(
                        PulsarScopes.PROTOCOL,
                        clientAddress,
                        null,
                        ClientIdentity.of(PulsarScopes.ROLE_FIELD.of(role))),
                decision,
                action.jsonName(),
                now,
                untilNanos);
    }

    /** The command's own error response to {@code request}, with {@code TooManyRequests}; the caller owns it. */
    private ByteBuf refusal(Request request, String message) {
        int type = request.type();
        if (type == LOOKUP) {
            return FrameWriter.lookupFailed(out.alloc(), request.requestId(), ServerError.TooManyRequests, message);
        }
        if (type == PARTITIONED_METADATA) {
            return FrameWriter.partitionedMetadataFailed(
                    out.alloc(), request.requestId(), ServerError.TooManyRequests, message);
        }
        if (type == GET_SCHEMA) {
            return FrameWriter.schemaFailed(out.alloc(), request.requestId(), ServerError.TooManyRequests, message);
        }
        return FrameWriter.error(out.alloc(), request.requestId(), ServerError.TooManyRequests, message);
    }

    /** A held request: its copy (owned by the gate), when it was held and is due, the exceeded scope's label. */
    private record Held(ByteBuf frame, long heldAtNanos, long dueNanos, String scope) {}

    /**
     * What a counted request names: its request id, and the topic (resolved as the broker reads a
     * short name; {@code null} for a name the broker refuses) or, for a topic list, the namespace.
     */
    private record Request(int type, long requestId, String topic, String namespace) {

        static Request of(BaseCommand command, int type) {
            if (type == GET_TOPICS_OF_NAMESPACE) {
                return new Request(
                        type,
                        command.getGetTopicsOfNamespace().getRequestId(),
                        null,
                        command.getGetTopicsOfNamespace().getNamespace());
            }
            long requestId;
            String topic;
            if (type == LOOKUP) {
                requestId = command.getLookupTopic().getRequestId();
                topic = command.getLookupTopic().getTopic();
            } else if (type == PARTITIONED_METADATA) {
                requestId = command.getPartitionMetadata().getRequestId();
                topic = command.getPartitionMetadata().getTopic();
            } else if (type == PRODUCER) {
                requestId = command.getProducer().getRequestId();
                topic = command.getProducer().getTopic();
            } else if (type == SUBSCRIBE) {
                requestId = command.getSubscribe().getRequestId();
                topic = command.getSubscribe().getTopic();
            } else {
                requestId = command.getGetSchema().getRequestId();
                topic = command.getGetSchema().getTopic();
            }
            return new Request(type, requestId, resolved(topic), "");
        }

        private static String resolved(String topic) {
            try {
                return TopicName.resolve(topic).toString();
            } catch (InvalidSettingsException notATopic) {
                return null;
            }
        }
    }
}
