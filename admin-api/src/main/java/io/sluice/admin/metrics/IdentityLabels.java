package io.sluice.admin.metrics;

import io.sluice.status.ThrottleLedger.EventKey;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Map.Entry;
import java.util.Set;

/**
 * The values the {@code principal} and {@code role} labels of {@code sluice_throttle_events_total}
 * may take in one scrape: clients name their identities, so only the identities throttled most
 * often, up to a maximum (Kafka principals and Pulsar roles together), keep their name; every other
 * is counted under {@value TopicLabels#OTHER}, as the topics past {@code --metrics-max-topics} are.
 * A counter without an identity keeps the empty value.
 */
final class IdentityLabels {

    /** Which label an identity is the value of, and the value. */
    private record Identity(String label, String name) {}

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
            if (key.principal() != null) {
                counts.merge(new Identity("principal", key.principal()), count, Long::sum);
            }
            if (key.role() != null) {
                counts.merge(new Identity("role", key.role()), count, Long::sum);
            }
        });
        List<Entry<Identity, Long>> mostFirst = new ArrayList<>(counts.entrySet());
        // Ties by name, so that the same counts name the same identities on every scrape.
        mostFirst.sort(Entry.<Identity, Long>comparingByValue()
                .reversed()
                .thenComparing(e -> e.getKey().label())
                .thenComparing(e -> e.getKey().name()));
        Set<Identity> named = new HashSet<>();
        for (Entry<Identity, Long> entry : mostFirst.subList(0, Math.min(maxNamed, mostFirst.size()))) {
            named.add(entry.getKey());
        }
        return new IdentityLabels(named);
    }

    /** The {@code principal} label value: the principal, {@value TopicLabels#OTHER}, or empty without one. */
    String principal(String principal) {
        return label("principal", principal);
    }

    /** The {@code role} label value: the role, {@value TopicLabels#OTHER}, or empty without one. */
    String role(String role) {
        return label("role", role);
    }

    private String label(String label, String name) {
        if (name == null) {
            return "";
        }
        return named.contains(new Identity(label, name)) ? name : TopicLabels.OTHER;
    }
}
