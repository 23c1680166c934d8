package io.sluice.status;

import java.util.Objects;

/**
 * Who a throttle applies to: a Pulsar producer or consumer, a Kafka client's produce to (or
 * fetch from) one topic over one connection, or a Kafka client's requests for one consumer group.
 *
 * @param protocol   {@code pulsar} or {@code kafka}
 * @param connection the client's remote address
 * @param clientId   the client id the client gave (Kafka); {@code null} when the protocol has none
 * @param principal  the principal the broker accepted for the connection (Kafka), {@code User:ANONYMOUS}
 *     before; {@code null} when the protocol has none
 * @param role       the role the broker accepted for the connection (Pulsar); {@code null} without one
 * @param producerId the producer's id (Pulsar); {@code null} otherwise
 * @param consumerId the consumer's id (Pulsar); {@code null} otherwise
 * @param topic      the throttled topic; {@code null} for a group's throttle
 * @param group      the throttled consumer group (Kafka); {@code null} for a topic's throttle
 */
public record ThrottleSubject(
        String protocol,
        String connection,
        String clientId,
        String principal,
        String role,
        Long producerId,
        Long consumerId,
        String topic,
        String group) {

    public ThrottleSubject {
        Objects.requireNonNull(protocol, "protocol");
        Objects.requireNonNull(connection, "connection");
        if ((topic == null) == (group == null)) {
            throw new IllegalArgumentException("a throttle is of a topic or of a group: " + topic + ", " + group);
        }
    }

    /** A subject without an identity. */
    public ThrottleSubject(
            String protocol, String connection, String clientId, Long producerId, Long consumerId, String topic) {
        this(protocol, connection, clientId, null, null, producerId, consumerId, topic, null);
    }

    /** A Kafka client's throttle for {@code group}, whatever the topics. */
    public static ThrottleSubject ofGroup(
            String protocol, String connection, String clientId, String principal, String group) {
        return new ThrottleSubject(protocol, connection, clientId, principal, null, null, null, null, group);
    }
}
