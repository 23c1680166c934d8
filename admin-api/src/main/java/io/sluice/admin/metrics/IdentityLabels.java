package io.sluice.admin.metrics;

import io.sluice.status.ClientIdentity;
import io.sluice.status.IdentityField;
import io.sluice.status.ThrottleLedger.EventKey;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Map.Entry;
import java.util.Set;

/**
 * The values the identity labels of {@code sluice_throttle_events_total} may take in one scrape:
 * one label per identity field the front ends declare a {@linkplain IdentityField#metricLabel()
 * metric label} (a Kafka {@code principal}, a Pulsar {@code role}). Clients name their identities,
 * so only the identities throttled most often, up to a maximum (all labels together), keep their
 * name; every other is counted under {@value TopicLabels#OTHER}, as the topics past
 * {@code --metrics-max-topics} are. A counter without a value for a label keeps the empty value.
 */
final class IdentityLabels {

    /** Which label an identity is the value of, and the value. */
    private record Identity(String label, Object name) {}

    private final Set<Identity> named;

    private IdentityLabels(Set<Identity> named) {
        this.named = named;
    }

    /**
     * @param events the throttle-event counters, by labels
     * @param maxNamed how many identities keep their name
     */
    static IdentityLabels select(Map<EventKey, Long> events, int maxNamed) {
        Map<Identity, Long> counts = new HashMap<>();
        events.forEach((key, count) -> {
            for (ClientIdentity.Value value : key.identity().values()) {
                counts.merge(new Identity(value.field().name(), value.value()), count, Long::sum);
            }
        });
        List<Entry<Identity, Long>> mostFirst = new ArrayList<>(counts.entrySet());
        // Ties by name, so that the same counts name the same identities on every scrape.
        mostFirst.sort(Entry.<Identity, Long>comparingByValue()
                .reversed()
                .thenComparing(e -> e.getKey().label())
                .thenComparing(e -> e.getKey().name().toString()));
        Set<Identity> named = new HashSet<>();
        for (Entry<Identity, Long> entry : mostFirst.subList(0, Math.min(maxNamed, mostFirst.size()))) {
            named.add(entry.getKey());
        }
        return new IdentityLabels(named);
    }

    /** {@code identity} with each value that does not keep its name as {@value TopicLabels#OTHER}. */
    ClientIdentity bounded(ClientIdentity identity) {
        List<ClientIdentity.Value> values = new ArrayList<>(identity.values().size());
        for (ClientIdentity.Value value : identity.values()) {
            boolean keeps = named.contains(new Identity(value.field().name(), value.value()));
            values.add(keeps ? value : value.field().of(TopicLabels.OTHER));
        }
        return new ClientIdentity(values);
    }
}
