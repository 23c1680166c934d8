package io.sluice.status;

import java.time.Instant;

/**
 * A producer or consumer that is being throttled now, as {@code GET /api/v1/throttled} lists it.
 * A Pulsar entry has exactly one of {@code producerId} and {@code consumerId}; a Kafka entry has
 * the {@code clientId} and topic instead.
 *
 * @param protocol     {@code pulsar} or {@code kafka}
 * @param connection   the client's remote address
 * @param clientId     the Kafka client id, or {@code null}
 * @param principal    the Kafka connection's principal ({@code User:ANONYMOUS} before authentication), or {@code null}
 * @param role         the Pulsar connection's role, or {@code null} without one
 * @param topic        the throttled topic, or {@code null} for a group's throttle
 * @param group        the throttled Kafka consumer group, or {@code null} for a topic's throttle
 * @param scope        the most specific exceeded scope: topic, namespace, tenant, role, prefix, client, principal or proxy
 * @param reason       which rate is exceeded, e.g. {@code publish_messages}
 * @param action       delay, reject or notify
 * @param since        when this throttle started
 */
public record ThrottledClient(
        String protocol,
        String connection,
        String clientId,
        String principal,
        String role,
        Long producerId,
        Long consumerId,
        String topic,
        String group,
        String scope,
        String reason,
        String action,
        Instant since,
        long heldMessages,
        long heldBytes) {}
