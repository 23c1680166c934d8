package io.sluice.admin.metrics;

import io.sluice.limits.LimitsDocument;
import io.sluice.limits.ScopeCatalogue;
import io.sluice.limits.ScopeRef;
import io.sluice.status.TopicMeter;

import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The values the {@code topic} label may take in one scrape, which keeps the number of series
 * bounded however many topics pass through: a topic with a limit of its own (at one of the scopes
 * its protocol says are the topic's, {@link ScopeCatalogue#topicScopes}: a partition of a
 * partitioned Pulsar topic with a limit too) keeps its name, and so do the busiest other topics up
 * to a maximum, whatever their protocol; every other topic is counted under {@value #OTHER} of its
 * protocol.
 */
public final class TopicLabels {

    /** The label value of the topics that do not get their own. */
    public static final String OTHER = "_other";

    /** A topic as a protocol names it; a Kafka and a Pulsar topic may share a name. */
    private record Topic(String protocol, String name) {}

    private final ScopeCatalogue catalogue;
    private final LimitsDocument limits;
    private final Set<Topic> named;

    private TopicLabels(ScopeCatalogue catalogue, LimitsDocument limits, Set<Topic> named) {
        this.catalogue = catalogue;
        this.limits = limits;
        this.named = named;
    }

    /**
     * @param catalogue which scopes of each protocol are a topic's own
     * @param limits the limits in force
     * @param busiestFirst the live topics, busiest first
     * @param maxOthers how many topics without a limit get their own label
     */
    public static TopicLabels select(
            ScopeCatalogue catalogue, LimitsDocument limits, List<TopicMeter> busiestFirst, int maxOthers) {
        Set<Topic> named = new HashSet<>();
        int others = 0;
        for (TopicMeter meter : busiestFirst) {
            Topic topic = new Topic(meter.protocol(), meter.topic());
            if (hasLimit(catalogue, limits, topic)) {
                named.add(topic);
            } else if (others < maxOthers) {
                named.add(topic);
                others++;
            }
        }
        return new TopicLabels(catalogue, limits, named);
    }

    /** The label value for {@code topic} of {@code protocol}: its name, or {@value #OTHER}. */
    public String label(String protocol, String topic) {
        Topic key = new Topic(protocol, topic);
        return named.contains(key) || hasLimit(catalogue, limits, key) ? topic : OTHER;
    }

    private static boolean hasLimit(ScopeCatalogue catalogue, LimitsDocument limits, Topic topic) {
        for (ScopeRef scope : catalogue.topicScopes(topic.protocol(), topic.name())) {
            if (limits.limitOf(scope) != null) {
                return true;
            }
        }
        return false;
    }
}
