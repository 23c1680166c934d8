package io.sluice.scopes;

import io.sluice.limits.LimitsDocument;
import io.sluice.limits.ScopeChain;
import io.sluice.limits.ScopeKind;
import io.sluice.limits.ScopeRef;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Kafka's scope model: records of a topic produced (or fetched) by a client must fit the topic's
 * limit, the limit of the longest prefix of the topic's name that has one, and the client id's.
 */
public final class KafkaScopes {

    private KafkaScopes() {}

    /**
     * The chain of {@code topic} as used by {@code clientId}.
     *
     * @param clientId the request header's client id; {@code null} or empty (Kafka allows both) has no client scope
     */
    public static ScopeChain topic(String topic, String clientId) {
        ScopeRef topicScope = new ScopeRef(ScopeKind.KAFKA_TOPIC, topic);
        ScopeRef clientScope =
                clientId == null || clientId.isEmpty() ? null : new ScopeRef(ScopeKind.KAFKA_CLIENT, clientId);
        return limits -> {
            List<ScopeRef> scopes = new ArrayList<>(3);
            scopes.add(topicScope);
            String prefix = longestPrefix(limits, topic);
            if (prefix != null) {
                scopes.add(new ScopeRef(ScopeKind.KAFKA_PREFIX, prefix));
            }
            if (clientScope != null) {
                scopes.add(clientScope);
            }
            return scopes;
        };
    }

    /** The longest prefix of {@code topic} that has a limit, or {@code null}. */
    static String longestPrefix(LimitsDocument limits, String topic) {
        Map<String, ?> prefixes = limits.kafka().prefixes();
        if (prefixes.isEmpty()) {
            return null;
        }
        for (int length = topic.length(); length > 0; length--) {
            String candidate = topic.substring(0, length);
            if (prefixes.containsKey(candidate)) {
                return candidate;
            }
        }
        return null;
    }
}
