package io.sluice.bench.sidebyside;

/** A Sluice under test whose topic limits a scenario sets over its admin API, whatever its protocol. */
interface TopicLimits {

    /** The admin API's base URL. */
    String adminUrl();

    /** Sets one topic's limit, e.g. {@code {"publish":{"messagesPerSecond":100}}}. */
    void putTopicLimit(String topic, String limitJson);

    /** Removes one topic's limit, if it has one. */
    void deleteTopicLimit(String topic);
}
