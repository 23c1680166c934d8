package io.sluice.admin.metrics;

import io.sluice.settings.InvalidSettingsException;
import io.sluice.limits.LimitsDocument;
import io.sluice.limits.pulsar.TopicName;
import io.sluice.status.TopicMeter;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The values the {@code topic} label may take in one scrape, which keeps the number of series
 * bounded however many topics pass through: a topic with a limit (or a partition of a
 * partitioned topic with a limit) keeps its name, and so do the busiest other topics up to a
 * maximum; every other topic is counted under {@value #OTHER}.
 */
public final class TopicLabels {

    /** The label value of the topics that do not get their own. */
    public static final String OTHER = "_other";

    private final LimitsDocument limits;
    private final Set<String> named;

    private TopicLabels(LimitsDocument limits, Set<String> named) {
        this.limits = limits;
        this.named = named;
    }

    /**
     * @param limits the limits in force
     * @param busiestFirst the live topics, busiest first
     * @param maxOthers how many topics without a limit get their own label
     */
    public static TopicLabels select(LimitsDocument limits, List<TopicMeter> busiestFirst, int maxOthers) {
        Set<String> named = new HashSet<>();
        int others = 0;
        for (TopicMeter meter : busiestFirst) {
            if (hasLimit(limits, meter.topic())) {
                named.add(meter.topic());
            } else if (others < maxOthers) {
                named.add(meter.topic());
                others++;
            }
        }
        return new TopicLabels(limits, named);
    }

    /** The label value for {@code topic}: its name, or {@value #OTHER}. */
    public String label(String topic) {
        return named.contains(topic) || hasLimit(limits, topic) ? topic : OTHER;
    }

    private static boolean hasLimit(LimitsDocument limits, String topic) {
        if (limits.topics().containsKey(topic)) {
            return true;
        }
        try {
            TopicName name = TopicName.parse(topic);
            return name.isPartition() && limits.topics().containsKey(name.baseName());
        } catch (InvalidSettingsException notATopicName) {
            return false;
        }
    }
}
