package io.sluice.status;

import java.util.Objects;

/**
 * Who a throttle applies to: a Pulsar producer or consumer, or a Kafka client's produce to (or
 * fetch from) one topic over one connection.
 *
 * @param protocol   {@code pulsar} or {@code kafka}
 * @param connection the client's remote address
 * @param clientId   the client id the client gave (Kafka); {@code null} when the protocol has none
 * @param principal  the principal the broker accepted for the connection (Kafka), {@code User:ANONYMOUS}
 *     before; {@code null} when the protocol has none
 * @param role       the role the broker accepted for the connection (Pulsar); {@code null} without one
 * @param producerId the producer's id (Pulsar); {@code null} otherwise
 * @param consumerId the consumer's id (Pulsar); {@code null} otherwise
 * @param topic      the throttled topic
 */
public record ThrottleSubject(
        String protocol,
        String connection,
        String clientId,
        String principal,
        String role,
        Long producerId,
        Long consumerId,
        String topic) {

    public ThrottleSubject {
        Objects.requireNonNull(protocol, "protocol");
        Objects.requireNonNull(connection, "connection");
        Objects.requireNonNull(topic, "topic");
    }

    /** A subject without an identity. */
    public ThrottleSubject(
            String protocol, String connection, String clientId, Long producerId, Long consumerId, String topic) {
        this(protocol, connection, clientId, null, null, producerId, consumerId, topic);
    }
}
