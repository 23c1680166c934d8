package io.sluice.kafka.gates;

import io.sluice.kafka.codec.RequestHeader;
import io.sluice.kafka.codec.RequestTopics;
import io.sluice.kafka.codec.ResponseFrame;
import io.sluice.kafka.codec.ThrottleTimeField;
import io.sluice.kafka.codec.WireCursor;
import io.sluice.kafka.scopes.KafkaNames;
import io.sluice.kafka.scopes.KafkaScopes;
import io.sluice.limits.AddressScopes;
import io.sluice.limits.Limit;
import io.sluice.limits.LimitPart;
import io.sluice.limits.LimitsDocument;
import io.sluice.limits.ScopeKind;
import io.sluice.limits.ScopeRef;
import io.sluice.quota.QuotaDecision;
import io.sluice.quota.QuotaPath;
import io.sluice.relay.FrameView;
import io.sluice.relay.RequestThrottle;
import io.sluice.relay.Throttling;
import org.apache.kafka.common.protocol.ApiKeys;

import java.net.InetAddress;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Rates of requests for one connection (docs/KAFKA.md, "Request rates"): every request but
 * ApiVersions, SaslHandshake, SaslAuthenticate, Produce, Fetch and ShareFetch (which have limits of
 * their own) is charged one to the scopes it falls under: the client id its header names, the
 * connection's principal, the client's address ({@code ips}) and the proxy; and, while a topic or
 * prefix limit sets a rate of requests, to each such topic and prefix the request names
 * ({@link RequestTopics}), once each however often it names them. Over the rate it is
 * still forwarded, charged, and the connection is throttled as a Kafka broker throttles a client
 * over its request quota (KIP-219), whatever the limit's {@code onExceed}: the broker's answer goes
 * back with {@code throttle_time_ms} raised to the time the buckets need (where the response's
 * version has the field), and the connection's next request is not read until that time is over,
 * so a client that ignores it is delayed anyway. Meanwhile the connection's client is throttled
 * (no topic; the exceeded scope, reason {@code work_requests}, action {@code notify}) in
 * {@code /api/v1/throttled} and the throttle metrics. Nothing is charged while no limit in force
 * has a rate of requests.
 *
 * <p>Confined to the connection's event loop.
 */
public final class RequestRateGate {

    private final GateContext context;
    private final InetAddress address;
    private final RequestThrottle throttle;
    private final QuotaDecision decision = new QuotaDecision();
    private final WireCursor cursor = new WireCursor();

    /** The limits {@link #limited} and {@link #addressScopes} were read from. */
    private LimitsDocument readOf;

    private boolean limited;
    /** Whether a topic or prefix limit in force sets a rate of requests. */
    private boolean topicsLimited;

    private AddressScopes addressScopes;

    RequestRateGate(GateContext context, InetAddress address) {
        this.context = context;
        this.address = address;
        this.throttle = context.requestThrottle(() -> false);
    }

    /** Whether requests to API {@code apiKey} are counted here. */
    public static boolean counts(short apiKey) {
        return apiKey != ApiKeys.API_VERSIONS.id
                && apiKey != ApiKeys.SASL_HANDSHAKE.id
                && apiKey != ApiKeys.SASL_AUTHENTICATE.id
                && apiKey != ApiKeys.PRODUCE.id
                && apiKey != ApiKeys.FETCH.id
                && apiKey != ApiKeys.SHARE_FETCH.id;
    }

    /**
     * Charges the lent request {@code frame}, whose header {@code header} just read, of an API this
     * gate {@link #counts}; the frame stays its lender's.
     *
     * @return 0 within the rates; over them, the milliseconds its response tells the client to wait
     *     (the connection takes no request meanwhile)
     */
    public int request(FrameView frame, RequestHeader header) {
        long now = context.arrived(frame, header);
        LimitsDocument limits = context.services().quotas().limits();
        if (limits != readOf) {
            readOf = limits;
            limited = limits.sets(LimitPart.REQUESTS);
            topicsLimited = setsRequests(limits, KafkaScopes.TOPIC) || setsRequests(limits, KafkaScopes.PREFIX);
            addressScopes = AddressScopes.of(limits);
        }
        if (!limited) {
            return 0;
        }
        List<ScopeRef> scopes = scopes();
        if (topicsLimited && RequestTopics.namesTopics(header.apiKey())) {
            addTopicScopes(frame, header, limits, scopes);
        }
        QuotaPath path = context.services().quotas().requestPath(scopes);
        if (path.isUnlimited() || path.tryAcquire(now, 1, 0, decision)) {
            return 0;
        }
        path.charge(now, 1, 0);
        long wait = path.waitNanos(now, 1, 0);
        int millis = GateContext.ceilMillis(wait);
        throttle.throttled(
                context.client(), decision, Throttling.PAUSE_CLIENT.action().jsonName(), now, now + wait);
        context.pauses().mute(millis);
        return millis;
    }

    /**
     * The exchange a throttled request's response goes through: {@code inner}'s work first (null for
     * none), then the throttle time raised to {@code millis}.
     */
    public Exchange throttledResponse(Exchange inner, int millis) {
        return new Exchange() {
            @Override
            public void complete(ResponseFrame response) {
                if (inner != null) {
                    inner.complete(response);
                }
                if (ThrottleTimeField.leadsBody(response.apiKey(), response.apiVersion())) {
                    ThrottleTimeField.raiseLeading(response.frame(), response.bodyIndex(), millis, cursor);
                }
            }

            @Override
            public void abandon() {
                if (inner != null) {
                    inner.abandon();
                }
            }
        };
    }

    /** The connection closes: the throttle ends, its timer stops. */
    void close() {
        throttle.end();
    }

    /**
     * Adds to {@code scopes} each topic the request names whose limit in {@code limits} sets a rate
     * of requests, and the longest prefix with such a limit of each topic it names, each once.
     * Names are the client's: one that is no topic name matches no topic's limit, and one longer
     * than a topic name can be is not looked at, so naming junk adds nothing and costs little.
     */
    private void addTopicScopes(FrameView frame, RequestHeader header, LimitsDocument limits, List<ScopeRef> scopes) {
        Map<String, Limit> topics = limits.limitsOf(KafkaScopes.TOPIC);
        Map<String, Limit> prefixes = limits.limitsOf(KafkaScopes.PREFIX);
        Set<ScopeRef> named = new HashSet<>();
        RequestTopics.forEach(frame, header, context.topicIdLookup().topicIds()::name, topic -> {
            if (topic == null || topic.length() > KafkaNames.MAX_TOPIC_LENGTH) {
                return;
            }
            Limit limit = topics.get(topic);
            if (limit != null && limit.requests() != null) {
                named.add(new ScopeRef(KafkaScopes.TOPIC, topic));
            }
            String prefix = longestRequestsPrefix(prefixes, topic);
            if (prefix != null) {
                named.add(new ScopeRef(KafkaScopes.PREFIX, prefix));
            }
        });
        scopes.addAll(named);
    }

    /** The longest of {@code prefixes} that {@code topic} starts with and whose limit sets a rate of requests, or null. */
    private static String longestRequestsPrefix(Map<String, Limit> prefixes, String topic) {
        String longest = null;
        for (Map.Entry<String, Limit> entry : prefixes.entrySet()) {
            String prefix = entry.getKey();
            if (entry.getValue().requests() != null
                    && topic.startsWith(prefix)
                    && (longest == null || prefix.length() > longest.length())) {
                longest = prefix;
            }
        }
        return longest;
    }

    private static boolean setsRequests(LimitsDocument limits, ScopeKind kind) {
        for (Limit limit : limits.limitsOf(kind).values()) {
            if (limit.requests() != null) {
                return true;
            }
        }
        return false;
    }

    /** The client id's, the principal's and the client address's scopes, as far as they are known. */
    private List<ScopeRef> scopes() {
        List<ScopeRef> scopes = context.identityScopes(1);
        ScopeRef addressScope = address == null ? null : addressScopes.scopeOf(address);
        if (addressScope != null) {
            scopes.add(addressScope);
        }
        return scopes;
    }
}
