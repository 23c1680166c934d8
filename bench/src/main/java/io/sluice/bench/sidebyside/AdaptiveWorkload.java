package io.sluice.bench.sidebyside;

/**
 * What the adaptive scenario needs of one protocol ({@link AdaptiveScenario}): an {@code online}
 * producer that sends synchronously, a {@code bulk} producer that floods a topic of its own on a
 * connection of its own, and the limits of that bulk topic, set through Sluice's admin API.
 */
interface AdaptiveWorkload {

    /** The protocol's name, for headings and files: {@code Pulsar}, {@code Kafka}. */
    String protocol();

    /** Connects a new online producer, its topic created and warmed up. */
    Online online() throws Exception;

    /** Connects a new bulk producer, its topic created and warmed up; it floods from {@link Bulk#start()}. */
    Bulk bulk() throws Exception;

    /** The Sluice under test, where the bulk topic's limit is set and its adaptive state read. */
    TopicLimits sluice();

    /** The bulk producer's topic. */
    String bulkTopic();

    /** Sets the bulk topic's limit ({@code null} removes it): a JSON limit of the admin API. */
    default void limitBulk(String limitJson) {
        if (limitJson == null) {
            sluice().deleteTopicLimit(bulkTopic());
        } else {
            sluice().putTopicLimit(bulkTopic(), limitJson);
        }
    }

    /** A producer that sends one message at a time. */
    interface Online extends AutoCloseable {

        /** Sends one message and waits for the broker's acknowledgement; returns how long that took, in ns. */
        long send() throws Exception;
    }

    /** A producer that keeps the broker as busy as it can, counting what the broker acknowledged. */
    interface Bulk extends AutoCloseable {

        void start();

        /** Stops sending and waits for what is in flight. */
        void stop() throws Exception;

        /** Messages acknowledged so far. */
        long acknowledged();
    }
}
