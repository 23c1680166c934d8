package io.sluice.status;

import java.time.Instant;

/**
 * A client being throttled now on one topic, as {@code GET /api/v1/throttled} lists it.
 *
 * @param protocol     the front end's protocol, e.g. {@code pulsar} or {@code kafka}
 * @param connection   the client's address
 * @param identity     who the client is, in its front end's declared identity fields (a Pulsar
 *     producer's or consumer's id and role, a Kafka client id and principal)
 * @param topic        the throttled topic, or {@code null} for a throttle of requests that name none
 * @param scope        the most specific exceeded scope's kind: topic, namespace, tenant, role, prefix, client, principal, group, ip or proxy
 * @param reason       which rate is exceeded, e.g. {@code publish_messages}
 * @param action       delay, reject or notify
 * @param since        when this throttle started
 * @param heldMessages what Sluice holds for it now, in messages
 * @param heldBytes    and in bytes
 */
public record ThrottledClient(
        String protocol,
        String connection,
        ClientIdentity identity,
        String topic,
        String scope,
        String reason,
        String action,
        Instant since,
        long heldMessages,
        long heldBytes) {}
