package io.sluice.limits;

import io.sluice.limits.kafka.KafkaNames;

import java.util.Map;

/**
 * The {@code kafka} section of the limits document: limits for Kafka traffic by topic, by topic
 * name prefix and by client id. A produce to {@code team-a.orders} by client {@code billing} must
 * fit the topic's, the longest matching prefix's, the client's and the proxy's limits at once.
 *
 * @param topics limits by topic name
 * @param prefixes limits by topic name prefix; a topic falls under the longest prefix that has a limit
 * @param clients limits by client id
 */
public record KafkaLimits(Map<String, Limit> topics, Map<String, Limit> prefixes, Map<String, Limit> clients) {

    /** No Kafka limits. */
    public static final KafkaLimits NONE = new KafkaLimits(null, null, null);

    /**
     * Absent maps become empty; names are checked with Kafka's rules ({@link KafkaNames}).
     *
     * @throws io.sluice.settings.InvalidSettingsException naming the entry at fault
     */
    public KafkaLimits {
        topics = NamedLimits.checkedCopy("topics", topics, KafkaNames::topic);
        prefixes = NamedLimits.checkedCopy("prefixes", prefixes, KafkaNames::prefix);
        clients = NamedLimits.checkedCopy("clients", clients, KafkaNames::clientId);
    }
}
