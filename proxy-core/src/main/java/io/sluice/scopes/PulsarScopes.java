package io.sluice.scopes;

import io.sluice.limits.ScopeChain;
import io.sluice.limits.ScopeKind;
import io.sluice.limits.ScopeRef;
import io.sluice.limits.pulsar.TopicName;
import io.sluice.settings.InvalidSettingsException;

import java.util.ArrayList;
import java.util.List;

/**
 * Pulsar's scope model: a message on a topic must fit the topic's limit (or the partition's and
 * then its partitioned topic's), its namespace's and its tenant's.
 */
public final class PulsarScopes {

    private PulsarScopes() {}

    /**
     * The chain of {@code topic}: {@code persistent://t/n/x-partition-2} falls under itself,
     * {@code persistent://t/n/x}, namespace {@code t/n} and tenant {@code t}. A name that is not a
     * valid fully qualified topic name can have no such limit and falls under the proxy alone.
     */
    public static ScopeChain topic(String topic) {
        List<ScopeRef> scopes = new ArrayList<>(4);
        TopicName name = parseOrNull(topic);
        if (name != null) {
            scopes.add(new ScopeRef(ScopeKind.PULSAR_TOPIC, topic));
            if (name.isPartition()) {
                scopes.add(new ScopeRef(ScopeKind.PULSAR_TOPIC, name.baseName()));
            }
            scopes.add(new ScopeRef(ScopeKind.PULSAR_NAMESPACE, name.namespaceName()));
            scopes.add(new ScopeRef(ScopeKind.PULSAR_TENANT, name.tenant()));
        }
        List<ScopeRef> chain = List.copyOf(scopes);
        return limits -> chain;
    }

    private static TopicName parseOrNull(String topic) {
        try {
            return TopicName.parse(topic);
        } catch (InvalidSettingsException notATopic) {
            return null;
        }
    }
}
