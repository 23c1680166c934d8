package io.sluice.status;

import java.time.Instant;

/**
 * A producer or consumer that is being throttled now, as {@code GET /api/v1/throttled} lists it.
 * Exactly one of {@code producerId} and {@code consumerId} is set.
 *
 * @param connection   the client's remote address
 * @param scope        the most specific exceeded scope: topic, namespace, tenant, proxy or connection
 * @param reason       what is exceeded, e.g. {@code publish messagesPerSecond 500.0}
 * @param action       delay, reject or notify
 * @param since        when this throttle started
 */
public record ThrottledClient(String connection,
                              Long producerId,
                              Long consumerId,
                              String topic,
                              String scope,
                              String reason,
                              String action,
                              Instant since,
                              long heldMessages,
                              long heldBytes) {
}
